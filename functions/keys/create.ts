import { createKey } from '#shared/domain/api-keys';
import { httpOperation } from '#shared/http/operation';
import { createKeyBody } from '#shared/schemas/keys';
import { created } from '#shared/http/responses';

export const handler = httpOperation({ body: createKeyBody }, async ({ body, workspace }) => created(await createKey(workspace.id, body)));
