import { queryAll } from '#shared/data/table/query-all';
import { campaignPartition } from '#shared/data/campaign';
import { ZERO_COUNTS, type CampaignCounts } from '#shared/domain/campaigns/campaign';

/**
 * A campaign's message counts by status, sharded like the workspace's and moved the same way,
 * from the table stream (shared/domain/outbox/counts.ts): each batch of moves adds its total and
 * status changes to one shard in one write, so the shards' sum always adds up to total_messages.
 */
const METRICS = 'METRICS#';
export const metricsKey = (ws: string, campaignId: string, shard: number) => ({ PK: campaignPartition(ws, campaignId), SK: `${METRICS}${shard}` });

/** The campaign's counts: the sum of its metric shards, read in one strongly consistent query. */
export async function campaignCounts(ws: string, campaignId: string): Promise<CampaignCounts> {
  const shards = await queryAll<Partial<CampaignCounts>>({
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :metrics)',
    ExpressionAttributeValues: { ':pk': campaignPartition(ws, campaignId), ':metrics': METRICS },
    ConsistentRead: true,
  });
  const counts = { ...ZERO_COUNTS };
  for (const shard of shards) for (const name of Object.keys(counts) as (keyof CampaignCounts)[]) counts[name] += Number(shard[name] ?? 0);
  return counts;
}
