import { tableName } from '#shared/data/table/client';
import { keys } from '#shared/data/keys';
import type { TransactItem } from '#shared/data/table/transact';
import { COUNTER_OF_STATUS } from '#shared/domain/campaigns/campaign';
import { campaignCounts } from '#shared/domain/campaigns/store';
import { messageShard, type MessageStatus } from '#shared/domain/messages/message';

/** A campaign's message count (all, or of one status), from its metric shards. */
export async function campaignMessageCount(ws: string, campaignId: string, status?: MessageStatus): Promise<number> {
  const counts = await campaignCounts(ws, campaignId);
  if (!status) return counts.total_messages;
  const counter = COUNTER_OF_STATUS[status];
  return counter ? counts[counter] : 0;
}

/** Moves one message between its campaign's status counters (its own shard), in the message's own transaction. */
export function campaignCountMove(ws: string, campaignId: string, messageId: string, from: MessageStatus, to: MessageStatus): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: keys.campaignMetrics(ws, campaignId, messageShard(messageId)),
      UpdateExpression: 'ADD #from :minusOne, #to :one',
      ExpressionAttributeNames: { '#from': COUNTER_OF_STATUS[from], '#to': COUNTER_OF_STATUS[to] },
      ExpressionAttributeValues: { ':minusOne': -1, ':one': 1 },
    },
  };
}
