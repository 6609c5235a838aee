import { listTemplates } from '#shared/domain/templates/catalog';
import { publicTemplate } from '#shared/domain/templates/template';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { ListTemplates } from '#shared/schemas/operations/templates';

export const handler = httpOperation(ListTemplates.request, async ({ query, workspace }) => ok((await listTemplates(workspace, query)).map(publicTemplate)));
