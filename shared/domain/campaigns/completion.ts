import { completeCampaign, getCampaign } from '#shared/data/campaign';
import { campaignCounts, shardHasPending } from '#shared/data/campaign-metrics';
import { nowIso } from '#shared/time';

/**
 * Completes a running campaign once its fan-out is done and no message is pending. Called after
 * the last chunk and after every message leaves `queued`; the condition makes it happen exactly
 * once, however many callers race. A message names its own shard (`movedShard`): while that one
 * still has pending messages, one read settles it, and the last message of each shard, which
 * reads after its own move commits, still looks at the whole campaign.
 */
export async function completeIfDone(ws: string, campaignId: string, movedShard?: number): Promise<boolean> {
  if (movedShard !== undefined && (await shardHasPending(ws, campaignId, movedShard))) return false;
  const campaign = await getCampaign(ws, campaignId);
  if (!campaign || campaign.status !== 'running' || !campaign.fanout_done) return false;
  // Once the fan-out is done nothing adds to pending, so a zero read now stays zero.
  const counts = await campaignCounts(ws, campaignId);
  if (counts.pending !== 0) return false;
  return completeCampaign(ws, campaignId, nowIso(), counts);
}
