import { UpdateCommand } from '#shared/data/table/commands';
import { campaignKey, campaignPartition } from '#shared/data/campaign';
import type { Campaign } from '#shared/records/campaign';
import { db, tableName } from '#shared/data/table/client';
import { conditionally } from '#shared/data/table/conditions';
import { queryAll } from '#shared/data/table/query-all';

/**
 * A campaign's budget (contract §20, docs/pricing.md §6): what its sends have reserved, in integer
 * ten-thousandths of the card's currency, spread over BUDGET_SHARDS items of the campaign's
 * partition as its metrics are, so concurrent sends do not all write one item.
 */
export const BUDGET_SHARDS = 8;
const BUDGET = 'BUDGET#';
const budgetKey = (ws: string, campaignId: string, shard: number) => ({ PK: campaignPartition(ws, campaignId), SK: `${BUDGET}${shard}` });

/** Each shard's reservations (0 for a shard never written), read in one strongly consistent query. */
export async function budgetShards(ws: string, campaignId: string): Promise<number[]> {
  const items = await queryAll<{ SK: string; reserved?: number }>({
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :budget)',
    ExpressionAttributeValues: { ':pk': campaignPartition(ws, campaignId), ':budget': BUDGET },
    ConsistentRead: true,
  });
  const shards = new Array<number>(BUDGET_SHARDS).fill(0);
  for (const item of items) shards[Number(item.SK.slice(BUDGET.length))] = Number(item.reserved ?? 0);
  return shards;
}

/**
 * Adds `units` to a shard, only if it still holds `seen` (what the check read): a send that lost
 * the race reads again. So at most one send per shard passes on a stale sum (docs/pricing.md §6).
 */
export const reserveOnShard = (ws: string, campaignId: string, shard: number, seen: number, units: number): Promise<boolean> =>
  conditionally(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: budgetKey(ws, campaignId, shard),
        UpdateExpression: 'SET reserved = :next',
        ConditionExpression: seen === 0 ? 'attribute_not_exists(reserved) OR reserved = :seen' : 'reserved = :seen',
        ExpressionAttributeValues: { ':seen': seen, ':next': seen + units },
      }),
    ),
  );

/** Sets the campaign's `paused_reason` while it runs and has none; false when it is not running or already paused. */
export const pauseRunningCampaign = (ws: string, campaignId: string, reason: NonNullable<Campaign['paused_reason']>): Promise<boolean> =>
  conditionally(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: campaignKey(ws, campaignId),
        UpdateExpression: 'SET paused_reason = :reason',
        ConditionExpression: '#status = :running AND (attribute_not_exists(paused_reason) OR paused_reason = :null)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':reason': reason, ':running': 'running', ':null': null },
      }),
    ),
  );
