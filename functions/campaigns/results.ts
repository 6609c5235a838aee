import { resultsView } from '#shared/domain/campaigns/campaign';
import { campaignCounts, requireCampaign } from '#shared/domain/campaigns/lifecycle';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { idParams } from '#shared/schemas/common';

export const handler = httpOperation({ params: idParams }, async ({ params, workspace }) => {
  const [campaign, counts] = await Promise.all([requireCampaign(workspace.id, params.id), campaignCounts(workspace.id, params.id)]);
  return ok(resultsView(campaign, counts));
});
