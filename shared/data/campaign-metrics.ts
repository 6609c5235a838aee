import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#shared/data/table/client';
import { queryAll } from '#shared/data/table/query-all';
import type { TransactItem } from '#shared/data/table/transact';
import type { CounterDelta } from '#shared/data/table/units';
import { campaignPartition } from '#shared/data/campaign';
import { COUNTER_OF_STATUS, ZERO_COUNTS, type CampaignCounts } from '#shared/domain/campaigns/campaign';
import type { MessageStatus } from '#shared/domain/messages/message';

/**
 * A campaign's message counts by status, sharded like the workspace's: a message moves counts
 * within its own shard only (`messageShard` of its id), so every shard, and so the sum, always
 * adds up to total_messages.
 */
const METRICS = 'METRICS#';
const metricsKey = (ws: string, campaignId: string, shard: number) => ({ PK: campaignPartition(ws, campaignId), SK: `${METRICS}${shard}` });

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

/** Whether one metric shard still has pending messages. */
export async function shardHasPending(ws: string, campaignId: string, shard: number): Promise<boolean> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: metricsKey(ws, campaignId, shard), ConsistentRead: true }));
  return Number(Item?.pending ?? 0) > 0;
}

/** Moves one message between its campaign's status counters (its own shard), in the message's own transaction. */
export function metricMove(ws: string, campaignId: string, shard: number, from: MessageStatus, to: MessageStatus): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: metricsKey(ws, campaignId, shard),
      UpdateExpression: 'ADD #from :minusOne, #to :one',
      ExpressionAttributeNames: { '#from': COUNTER_OF_STATUS[from], '#to': COUNTER_OF_STATUS[to] },
      ExpressionAttributeValues: { ':minusOne': -1, ':one': 1 },
    },
  };
}

/** A new campaign message's counts on its shard: one more in total and in its status's counter (pending, or failed when refused before sending). */
export const newMessageMetrics = (ws: string, campaignId: string, shard: number, status: MessageStatus = 'queued'): CounterDelta[] => [
  { key: metricsKey(ws, campaignId, shard), attribute: 'total_messages', delta: 1 },
  { key: metricsKey(ws, campaignId, shard), attribute: COUNTER_OF_STATUS[status], delta: 1 },
];
