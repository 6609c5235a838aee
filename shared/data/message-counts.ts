import { tableName } from '#shared/data/table/client';
import { getMany } from '#shared/data/table/pages';
import { MESSAGE_SHARDS } from '#shared/data/message-shard';
import type { TransactItem } from '#shared/data/table/transact';
import { MESSAGE_STATUSES, type MessageStatus } from '#shared/domain/messages/message';

/**
 * A workspace's message counts by status, one item per shard, each in its own partition (they
 * are written on every status change), moved in the same transaction as the message: exact
 * totals without scans.
 */
export const messageCountsKey = (ws: string, shard: number) => ({ PK: `WS#${ws}#MESSAGE_COUNTS#${shard}`, SK: 'COUNTS' });

/** Moves one message from `from` (null: a new message) to `to` on its shard's counter item. */
export function messageCountMove(ws: string, shard: number, from: MessageStatus | null, to: MessageStatus): TransactItem {
  const names: Record<string, string> = { '#to': to };
  const values: Record<string, number> = { ':one': 1 };
  let expression = 'ADD #to :one';
  if (from) {
    names['#from'] = from;
    values[':minusOne'] = -1;
    expression += ', #from :minusOne';
  }
  return { Update: { TableName: tableName(), Key: messageCountsKey(ws, shard), UpdateExpression: expression, ExpressionAttributeNames: names, ExpressionAttributeValues: values } };
}

/** The workspace's message counts by status, summed over the shards. */
export async function messageCounts(ws: string): Promise<Record<MessageStatus, number>> {
  const shards = await getMany<Record<string, unknown>>(Array.from({ length: MESSAGE_SHARDS }, (_, shard) => messageCountsKey(ws, shard)));
  const counts = Object.fromEntries(MESSAGE_STATUSES.map((status) => [status, 0])) as Record<MessageStatus, number>;
  for (const shard of shards) for (const status of MESSAGE_STATUSES) counts[status] += Number(shard[status] ?? 0);
  return counts;
}
