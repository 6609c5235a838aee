import { estimateCampaign } from '#shared/domain/campaigns/estimate';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { EstimateCampaign } from '#shared/schemas/operations/campaigns';

export const handler = httpOperation(EstimateCampaign.request, async ({ params, body, workspace }) => ok(await estimateCampaign(workspace, params.id, body)));
