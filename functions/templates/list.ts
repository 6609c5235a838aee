import * as v from 'valibot';
import { listTemplates, publicTemplate, TEMPLATE_STATUSES } from '#shared/domain/templates';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';

const query = v.object({
  status: v.optional(v.picklist(TEMPLATE_STATUSES, `Must be one of ${TEMPLATE_STATUSES.join(', ')}`), 'APPROVED'),
  name: v.optional(v.string()),
  language: v.optional(v.string()),
});

export const handler = httpOperation({ query }, async ({ query, workspace }) => ok((await listTemplates(workspace.id, query)).map(publicTemplate)));
