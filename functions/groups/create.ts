import { createGroup } from '#shared/domain/groups/groups';
import { httpOperation } from '#shared/http/operation';
import { createGroupBody } from '#shared/schemas/groups';
import { created } from '#shared/http/responses';

export const handler = httpOperation({ body: createGroupBody }, async ({ body, workspace }) => created(await createGroup(workspace.id, body)));
