import { deleteGroup } from '#shared/domain/groups/groups';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { idParams } from '#shared/schemas/common';

export const handler = httpOperation({ params: idParams }, async ({ params, workspace }) => {
  await deleteGroup(workspace.id, params.id);
  return ok({ id: params.id, deleted: true });
});
