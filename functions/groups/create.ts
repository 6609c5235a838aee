import { createGroup } from '#shared/domain/groups/groups';
import { httpOperation } from '#shared/http/operation';
import { created } from '#shared/http/responses';
import { CreateGroup } from '#shared/schemas/operations/groups';

export const handler = httpOperation(CreateGroup.request, async ({ body, workspace }) => created(await createGroup(workspace.id, body)));
