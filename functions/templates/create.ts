import { createTemplate } from '#shared/domain/templates/create';
import { publicTemplate } from '#shared/domain/templates/template';
import { httpOperation } from '#shared/http/operation';
import { created } from '#shared/http/responses';
import { CreateTemplate } from '#shared/schemas/operations/templates';

export const handler = httpOperation(CreateTemplate.request, async ({ body, workspace }) => created(publicTemplate(await createTemplate(workspace, body))));
