import { deleteGroup } from '#shared/domain/groups/groups';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { DeleteGroup } from '#shared/schemas/operations/groups';

export const handler = httpOperation(DeleteGroup.request, async ({ params, workspace }) => {
  await deleteGroup(workspace.id, params.id);
  return ok({ id: params.id, deleted: true });
});
