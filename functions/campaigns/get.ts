import { campaignView, metricsView } from '#shared/domain/campaigns/campaign';
import { campaignCounts, requireCampaign } from '#shared/domain/campaigns/lifecycle';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { GetCampaign } from '#shared/schemas/operations/campaigns';

export const handler = httpOperation(GetCampaign.request, async ({ params, workspace }) => {
  const campaign = await requireCampaign(workspace.id, params.id);
  return ok({ ...campaignView(campaign), metrics: metricsView(await campaignCounts(workspace.id, campaign.id)) });
});
