import { resultsView } from '#shared/domain/campaigns/campaign';
import { campaignCountsByCode, requireCampaign } from '#shared/domain/campaigns/lifecycle';
import { currentPause } from '#shared/domain/messages/number-pause';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { pausedUntil } from '#shared/domain/campaigns/window-wait';
import { GetCampaignResults } from '#shared/schemas/operations/campaigns';

export const handler = httpOperation(GetCampaignResults.request, async ({ params, workspace }) => {
  const [campaign, { counts, failedByCode }, pause] = await Promise.all([
    requireCampaign(workspace.id, params.id),
    campaignCountsByCode(workspace.id, params.id),
    currentPause(workspace.phone_number_id),
  ]);
  const pausedReason = pause ? { code: pause.code, title: pause.title, since: pause.since } : null;
  return ok(resultsView(campaign, counts, pausedReason, failedByCode, pausedUntil(campaign, Date.now())));
});
