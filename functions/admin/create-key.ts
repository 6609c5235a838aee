import { createKey } from '#shared/domain/api-keys';
import { requireActiveWorkspace } from '#shared/domain/operator/workspaces';
import { operatorOperation } from '#shared/http/operator-operation';
import { created } from '#shared/http/responses';
import { CreateWorkspaceKey } from '#shared/schemas/operations/operator';

export const handler = operatorOperation(CreateWorkspaceKey.request, async ({ params, body }) => {
  await requireActiveWorkspace(params.id);
  return created(await createKey(params.id, body));
});
