import { editTemplate } from '#shared/domain/templates/edit';
import { publicTemplate } from '#shared/domain/templates/template';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { UpdateTemplate } from '#shared/schemas/operations/templates';

export const handler = httpOperation(UpdateTemplate.request, async ({ body, params, workspace }) =>
  ok(publicTemplate(await editTemplate(workspace, params.id, body))),
);
