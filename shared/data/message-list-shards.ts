import { GetCommand, UpdateCommand } from '#shared/data/table/commands';
import { db, tableName } from '#shared/data/table/client';
import { rateWindowKey } from '#shared/data/rate-window';
import { MESSAGE_SHARDS } from '#shared/data/message-shard';
import type { TransactItem } from '#shared/data/table/transact';
import { isConditionFailure } from '#shared/data/table/conditions';
import { env } from '#shared/config';

/*
 * How many partitions of the list index (messageHistory) hold a workspace's messages: one, until
 * its first campaign widens the list to MESSAGE_SHARDS, for good (a campaign's fan-out writes
 * faster than one partition takes). The count is on the workspace's rate window item, so every
 * API request's admission returns it with no call of its own, and a list reads the partitions
 * its admission saw.
 *
 * No list shows a message and misses one stored before it:
 * - messages other than a campaign's are written to partition 0, which every list reads;
 * - a fan-out writes only once the widening is `listWideningDelayMs` old, longer than a list
 *   request can run: a list admitted before the widening has answered by then;
 * - an item without the count (a workspace created before it, or a window item gone after 100
 *   idle days) reads, and has the fan-out write, all MESSAGE_SHARDS partitions.
 */

/** The list's partitions before its workspace's first campaign. */
const NARROW = 1;

type WindowItem = Record<string, unknown> | undefined;

/** The partitions a list reads, from the window item as an admission wrote it. */
export const readShards = (item: WindowItem): number => (typeof item?.list_shards === 'number' ? item.list_shards : MESSAGE_SHARDS);

/** A new workspace's list, narrow: in the transaction that stores the workspace (before any message). */
export const narrowListCreated = (ws: string): TransactItem => ({
  Put: { TableName: tableName(), Item: { ...rateWindowKey(ws), list_shards: NARROW }, ConditionExpression: 'attribute_not_exists(PK)' },
});

async function readWindowItem(ws: string): Promise<WindowItem> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: rateWindowKey(ws), ConsistentRead: true }));
  return Item;
}

/** Widens a narrow list; the item as it is afterwards, whether this call or an earlier one widened it. */
async function widen(ws: string, now: number): Promise<WindowItem> {
  try {
    const { Attributes } = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: rateWindowKey(ws),
        UpdateExpression: 'SET list_shards = :wide, list_widened_at = :now',
        ConditionExpression: 'list_shards = :narrow',
        ExpressionAttributeValues: { ':wide': MESSAGE_SHARDS, ':narrow': NARROW, ':now': now },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return Attributes;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    return readWindowItem(ws);
  }
}

/**
 * The partitions a campaign's fan-out writes its messages to, the list widened first if it is
 * narrow, and the time from which it may write them (epoch ms; 0 when it may already).
 */
export async function widenedList(ws: string, now = Date.now()): Promise<{ shards: number; writableFrom: number }> {
  const item = await readWindowItem(ws);
  const widened = readShards(item) === NARROW ? await widen(ws, now) : item;
  const widenedAt = widened?.list_widened_at;
  return { shards: readShards(widened), writableFrom: typeof widenedAt === 'number' ? widenedAt + env.listWideningDelayMs : 0 };
}

/**
 * The partitions a campaign's fan-out writes its messages to, once it may: the list widened if
 * it is narrow, then, for the workspace's first campaign only, a wait until the widening is old
 * enough for every list under way to have answered.
 */
export async function fanoutListShards(ws: string): Promise<number> {
  const { shards, writableFrom } = await widenedList(ws);
  // A timer may fire a millisecond before the wall clock reaches its time: wait until the clock says so.
  for (let wait = writableFrom - Date.now(); wait > 0; wait = writableFrom - Date.now()) await new Promise((resolve) => setTimeout(resolve, wait));
  return shards;
}
