import { keys, MESSAGE_SHARDS } from '#shared/data/keys';
import { getMany } from '#shared/data/table/pages';
import { tableName } from '#shared/data/table/client';
import type { TransactItem } from '#shared/data/table/transact';
import { MESSAGE_STATUSES, messageShard, type MessageStatus } from '#shared/domain/messages/message';

/**
 * Messages are counted per status on MESSAGE_SHARDS counter items per workspace (the shard of
 * each message's id), moved in the same transaction as the message: exact totals without scans.
 */
export function countMove(ws: string, messageId: string, from: MessageStatus | null, to: MessageStatus): TransactItem {
  const names: Record<string, string> = { '#to': to };
  const values: Record<string, number> = { ':one': 1 };
  let expression = 'ADD #to :one';
  if (from) {
    names['#from'] = from;
    values[':minusOne'] = -1;
    expression += ', #from :minusOne';
  }
  return {
    Update: {
      TableName: tableName(),
      Key: keys.messageCounts(ws, messageShard(messageId)),
      UpdateExpression: expression,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

/** The workspace's message counts by status, summed over the shards. */
export async function messageCounts(ws: string): Promise<Record<MessageStatus, number>> {
  const shards = await getMany<Record<string, unknown>>(
    Array.from({ length: MESSAGE_SHARDS }, (_, shard) => keys.messageCounts(ws, shard)),
  );
  const counts = Object.fromEntries(MESSAGE_STATUSES.map((status) => [status, 0])) as Record<MessageStatus, number>;
  for (const shard of shards) for (const status of MESSAGE_STATUSES) counts[status] += Number(shard[status] ?? 0);
  return counts;
}
