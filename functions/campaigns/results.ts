import { resultsView } from '#shared/domain/campaigns/campaign';
import { firstNumberOf } from '#shared/records/workspace';
import { campaignCountsByCode, requireCampaign } from '#shared/domain/campaigns/lifecycle';
import { currentPause } from '#shared/domain/messages/number-pause';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { pausedUntil } from '#shared/domain/campaigns/window-wait';
import { GetCampaignResults } from '#shared/schemas/operations/campaigns';
import { campaignCost } from '#shared/domain/pricing/campaign-cost';

export const handler = httpOperation(GetCampaignResults.request, async ({ params, workspace }) => {
  const [campaign, { counts, failedByCode, billed }] = await Promise.all([
    requireCampaign(workspace.id, params.id),
    campaignCountsByCode(workspace.id, params.id),
  ]);
  // The pause of the number it sends from (contract §17); a campaign from before several numbers sends from the first.
  const pause = await currentPause(campaign.business_number_id ?? firstNumberOf(workspace));
  // Its own budget's pause first (contract §20): a resume is what it waits for.
  const pausedReason = campaign.paused_reason ?? (pause ? { code: pause.code, title: pause.title, since: pause.since } : null);
  return ok(resultsView(campaign, counts, await campaignCost(campaign, billed), pausedReason, failedByCode, pausedUntil(campaign, Date.now())));
});
