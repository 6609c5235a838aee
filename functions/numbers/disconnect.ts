import { disconnect } from '#shared/domain/numbers/connect';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { DisconnectNumber } from '#shared/schemas/operations/numbers';

export const handler = httpOperation(DisconnectNumber.request, async ({ params, workspace }) => {
  await disconnect(workspace, params.id);
  return ok({ id: params.id, disconnected: true as const });
});
