import { setRateCard } from '#shared/domain/pricing/rate-cards';
import { operatorOperation } from '#shared/http/operator-operation';
import { ok } from '#shared/http/responses';
import { SetWorkspaceRateCard } from '#shared/schemas/operations/operator';

export const handler = operatorOperation(SetWorkspaceRateCard.request, async ({ params, body }) =>
  ok({ source: 'workspace', ...(await setRateCard(params.id, body)) }),
);
