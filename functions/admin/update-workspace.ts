import { operatorView, requireActiveWorkspace } from '#shared/domain/operator/workspaces';
import { updateWorkspace } from '#shared/domain/workspaces';
import { operatorOperation } from '#shared/http/operator-operation';
import { ok } from '#shared/http/responses';
import { UpdateWorkspace } from '#shared/schemas/operations/operator';

export const handler = operatorOperation(UpdateWorkspace.request, async ({ params, body }) => {
  await requireActiveWorkspace(params.id);
  return ok(await operatorView(await updateWorkspace(params.id, body)));
});
