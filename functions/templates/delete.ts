import { deleteTemplate } from '#shared/domain/templates/delete';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { DeleteTemplate } from '#shared/schemas/operations/templates';

export const handler = httpOperation(DeleteTemplate.request, async ({ params, query, workspace }) =>
  ok(await deleteTemplate(workspace, params.id, query.all_languages)),
);
