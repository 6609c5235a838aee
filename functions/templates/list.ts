import { listTemplates } from '#shared/domain/templates/catalog';
import { publicTemplate } from '#shared/domain/templates/template';
import { httpOperation } from '#shared/http/operation';
import { listTemplatesQuery } from '#shared/schemas/templates';
import { ok } from '#shared/http/responses';

export const handler = httpOperation({ query: listTemplatesQuery }, async ({ query, workspace }) => ok((await listTemplates(workspace.id, query)).map(publicTemplate)));
