import { workspaceRateCard } from '#shared/domain/pricing/rate-cards';
import { operatorOperation } from '#shared/http/operator-operation';
import { ok } from '#shared/http/responses';
import { GetWorkspaceRateCard } from '#shared/schemas/operations/operator';

export const handler = operatorOperation(GetWorkspaceRateCard.request, async ({ params }) => ok(await workspaceRateCard(params.id)));
