import { connectNumber } from '#shared/domain/numbers/connect';
import { requireActiveWorkspace } from '#shared/domain/operator/workspaces';
import { operatorOperation } from '#shared/http/operator-operation';
import { created } from '#shared/http/responses';
import { ConnectWorkspaceNumber } from '#shared/schemas/operations/operator';

export const handler = operatorOperation(ConnectWorkspaceNumber.request, async ({ params, body }) =>
  created(await connectNumber(await requireActiveWorkspace(params.id), body, { by: 'operator' })),
);
