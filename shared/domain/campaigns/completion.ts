import { completeCampaign, getCampaign } from '#shared/data/campaign';
import { campaignCountsWithRetries } from '#shared/data/campaign-metrics';
import { nowIso } from '#shared/time';

/**
 * Completes a running campaign once its fan-out is done and its metrics hold every recipient's
 * message, none pending. Called after the last chunk and after each stream batch that moved its
 * metrics: each writes before it reads what the other writes, so the last of them sees both; the
 * condition makes completion happen exactly once, however many callers race.
 */
export async function completeIfDone(ws: string, campaignId: string): Promise<boolean> {
  const campaign = await getCampaign(ws, campaignId);
  if (!campaign || campaign.status !== 'running' || !campaign.fanout_done) return false;
  const { counts, retried } = await campaignCountsWithRetries(ws, campaignId);
  // Counts trail the messages (they come from the table stream): all created and counted (retries too), none pending.
  if (counts.total_messages < (campaign.total_recipients ?? 0) || retried < (campaign.retried_total ?? 0) || counts.pending !== 0) return false;
  return completeCampaign(ws, campaignId, nowIso(), counts);
}
