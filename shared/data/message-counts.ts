import { getMany } from '#shared/data/table/pages';
import { MESSAGE_SHARDS } from '#shared/data/message-shard';
import { MESSAGE_STATUSES, type MessageStatus } from '#shared/records/message';

/**
 * A workspace's message counts by status, in MESSAGE_SHARDS items, each in its own partition.
 * The table stream moves them, a batch of status moves at a time onto one shard (see
 * shared/domain/outbox/counts.ts): one shard may read negative for a status, their sum is exact.
 */
export const messageCountsKey = (ws: string, shard: number) => ({ PK: `WS#${ws}#MESSAGE_COUNTS#${shard}`, SK: 'COUNTS' });

/** The workspace's message counts by status, summed over the shards. */
export async function messageCounts(ws: string): Promise<Record<MessageStatus, number>> {
  const shards = await getMany<Record<string, unknown>>(Array.from({ length: MESSAGE_SHARDS }, (_, shard) => messageCountsKey(ws, shard)));
  const counts = Object.fromEntries(MESSAGE_STATUSES.map((status) => [status, 0])) as Record<MessageStatus, number>;
  for (const shard of shards) for (const status of MESSAGE_STATUSES) counts[status] += Number(shard[status] ?? 0);
  return counts;
}
