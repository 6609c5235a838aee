import { resultsView } from '#shared/domain/campaigns/campaign';
import { campaignCounts, requireCampaign } from '#shared/domain/campaigns/store';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { idParams } from '#shared/http/schemas';

export const handler = httpOperation({ params: idParams }, async ({ params, workspace }) => {
  const [campaign, counts] = await Promise.all([requireCampaign(workspace.id, params.id), campaignCounts(workspace.id, params.id)]);
  return ok(resultsView(campaign, counts));
});
