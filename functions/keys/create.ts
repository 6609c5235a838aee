import { createKey } from '#shared/domain/api-keys';
import { httpOperation } from '#shared/http/operation';
import { created } from '#shared/http/responses';
import { CreateKey } from '#shared/schemas/operations/keys';

export const handler = httpOperation(CreateKey.request, async ({ body, workspace }) => created(await createKey(workspace.id, body)));
