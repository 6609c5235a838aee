import { queryAll } from '#shared/data/table/query-all';
import { campaignPartition } from '#shared/data/campaign';
import { billedByCurrency } from '#shared/data/cost-counts';
import { ZERO_COUNTS, type CampaignCounts } from '#shared/records/campaign';

/**
 * A campaign's message counts by status, sharded like the workspace's and moved the same way,
 * from the table stream (shared/domain/outbox/counts.ts): each batch of moves adds its total and
 * status changes to one shard in one write, so the shards' sum always adds up to total_messages.
 */
const METRICS = 'METRICS#';
export const metricsKey = (ws: string, campaignId: string, shard: number) => ({ PK: campaignPartition(ws, campaignId), SK: `${METRICS}${shard}` });

/** Failed messages by their error code, one counter attribute per code beside the status counts (`failed_code#131049`). */
const FAILED_CODE = 'failed_code#';
export const failedCodeAttribute = (code: string | number) => `${FAILED_CODE}${code}`;

/** Retry messages counted so far (each replaced a failed message): completion after a retry waits for all of them. */
export const RETRIED = 'retried';

/** The campaign's metric shards, read in one strongly consistent query. */
const metricShards = (ws: string, campaignId: string) =>
  queryAll<Record<string, unknown>>({
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :metrics)',
    ExpressionAttributeValues: { ':pk': campaignPartition(ws, campaignId), ':metrics': METRICS },
    ConsistentRead: true,
  });

function countsOf(shards: Record<string, unknown>[]): CampaignCounts {
  const counts = { ...ZERO_COUNTS };
  for (const shard of shards) for (const name of Object.keys(counts) as (keyof CampaignCounts)[]) counts[name] += Number(shard[name] ?? 0);
  return counts;
}

function failedByCodeOf(shards: Record<string, unknown>[]): Record<string, number> {
  const byCode: Record<string, number> = {};
  for (const shard of shards) {
    for (const [attribute, value] of Object.entries(shard)) {
      if (attribute.startsWith(FAILED_CODE)) byCode[attribute.slice(FAILED_CODE.length)] = (byCode[attribute.slice(FAILED_CODE.length)] ?? 0) + Number(value);
    }
  }
  return Object.fromEntries(Object.entries(byCode).filter(([, count]) => count > 0));
}

/** The campaign's counts: the sum of its metric shards. */
export const campaignCounts = async (ws: string, campaignId: string): Promise<CampaignCounts> => countsOf(await metricShards(ws, campaignId));

const retriedOf = (shards: Record<string, unknown>[]) => shards.reduce((sum, shard) => sum + Number(shard[RETRIED] ?? 0), 0);

/** The counts and how many retry messages they include (each one's failed message no longer counted). */
export async function campaignCountsWithRetries(ws: string, campaignId: string): Promise<{ counts: CampaignCounts; retried: number }> {
  const shards = await metricShards(ws, campaignId);
  return { counts: countsOf(shards), retried: retriedOf(shards) };
}

/** The counts, the failed messages by error code (contract §15 `failed_by_code`) and the billed cost by currency (§20), from one read of the shards. */
export async function campaignCountsByCode(
  ws: string,
  campaignId: string,
): Promise<{ counts: CampaignCounts; failedByCode: Record<string, number>; retried: number; billed: Record<string, number> }> {
  const shards = await metricShards(ws, campaignId);
  return { counts: countsOf(shards), failedByCode: failedByCodeOf(shards), retried: retriedOf(shards), billed: billedByCurrency(shards) };
}

/** The campaign's billed cost by currency, in ten-thousandths. */
export const campaignBilled = async (ws: string, campaignId: string): Promise<Record<string, number>> => billedByCurrency(await metricShards(ws, campaignId));
