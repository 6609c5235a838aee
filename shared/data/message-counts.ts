import { getMany } from '#shared/data/table/pages';
import { queryAll } from '#shared/data/table/query-all';
import { MESSAGE_SHARDS } from '#shared/data/message-shard';
import { MESSAGE_STATUSES, type MessageStatus } from '#shared/records/message';
import { SKIPPED_SORT_KEYS } from '#shared/data/table/stream-filters';

/**
 * A workspace's message counts by status, in MESSAGE_SHARDS items, each in its own partition.
 * The table stream moves them, a batch of status moves at a time onto one shard (see
 * shared/domain/outbox/counts.ts): one shard may read negative for a status, their sum is exact.
 * Beside each shard's workspace counts, one item per number a message stores (every number but
 * the workspace's first, see shared/domain/numbers/numbers.ts) counts that number's messages.
 */
const COUNTS = SKIPPED_SORT_KEYS.messageCounts;
export const messageCountsKey = (ws: string, shard: number) => ({ PK: `WS#${ws}#MESSAGE_COUNTS#${shard}`, SK: COUNTS });
const NUMBER_PREFIX = 'NUMBER#';
export const numberCountsKey = (ws: string, numberId: string, shard: number) => ({ PK: messageCountsKey(ws, shard).PK, SK: `${NUMBER_PREFIX}${numberId}` });

export type MessageCounts = Record<MessageStatus, number>;

const zero = (): MessageCounts => Object.fromEntries(MESSAGE_STATUSES.map((status) => [status, 0])) as MessageCounts;

function summed(items: Record<string, unknown>[]): MessageCounts {
  const counts = zero();
  for (const item of items) for (const status of MESSAGE_STATUSES) counts[status] += Number(item[status] ?? 0);
  return counts;
}

const allShards = <T>(keyOf: (shard: number) => T): T[] => Array.from({ length: MESSAGE_SHARDS }, (_, shard) => keyOf(shard));

/** The items that hold the workspace's message counts, for a caller that reads them with others (messageCountsOf sums them). */
export const messageCountsKeys = (ws: string) => allShards((shard) => messageCountsKey(ws, shard));

/** The workspace's message counts by status, from its count items as read (others among them are left out). */
export const messageCountsOf = (ws: string, items: Record<string, unknown>[]): MessageCounts =>
  summed(items.filter((item) => item.SK === COUNTS && String(item.PK).startsWith(`WS#${ws}#MESSAGE_COUNTS#`)));

/** The workspace's message counts by status, summed over the shards. */
export async function messageCounts(ws: string): Promise<MessageCounts> {
  return summed(await getMany(messageCountsKeys(ws)));
}

/** The counts of the messages that store this number. */
export async function storedNumberCounts(ws: string, numberId: string): Promise<MessageCounts> {
  return summed(await getMany(allShards((shard) => numberCountsKey(ws, numberId, shard))));
}

/** The counts of every message that stores a number, whichever (connected or not). */
export async function allStoredNumberCounts(ws: string): Promise<MessageCounts> {
  const shards = await Promise.all(
    allShards((shard) =>
      queryAll({
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :numbers)',
        ExpressionAttributeValues: { ':pk': messageCountsKey(ws, shard).PK, ':numbers': NUMBER_PREFIX },
      }),
    ),
  );
  return summed(shards.flat());
}
