import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#shared/data/table/client';
import { rateWindowKey } from '#shared/data/rate-window';
import { MESSAGE_SHARDS } from '#shared/data/message-shard';
import type { TransactItem } from '#shared/data/table/transact';
import { env } from '#shared/config';

/*
 * How many partitions of the list index (messageHistory) hold a workspace's messages: one, until
 * the fan-out of a campaign of more than `listWidenAboveRecipients` widens the list to
 * MESSAGE_SHARDS, for good (a campaign writes faster than one partition takes). The count is on
 * the workspace's rate window item, so every API request's admission returns it with no call of
 * its own, and a list reads the partitions its admission saw.
 *
 * No list misses a message written before it began:
 * - messages other than a campaign's are written to partition 0, which every list reads;
 * - the fan-out writes the new partitions only `listWideningDelayMs` after the widening, longer
 *   than any request runs: a list admitted before the widening has answered by then;
 * - an item without the count (a workspace created before it, or a window item gone after 100
 *   idle days) reads, and has the fan-out write, all MESSAGE_SHARDS partitions.
 */

/** The list's partitions when it has not widened. */
const NARROW = 1;

type WindowItem = Record<string, unknown> | undefined;

/** The partitions a list reads, from the window item as an admission wrote it. */
export const readShards = (item: WindowItem): number => (typeof item?.list_shards === 'number' ? item.list_shards : MESSAGE_SHARDS);

/** The partitions the fan-out writes at `now`: the narrow one until the widening is old enough for every list to read the rest. */
function writeShards(item: WindowItem, now: number): number {
  const widenedAt = item?.list_widened_at;
  return typeof widenedAt === 'number' && now < widenedAt + env.listWideningDelayMs ? NARROW : readShards(item);
}

/** A new workspace's list, narrow: in the transaction that stores the workspace (before any message). */
export const narrowListCreated = (ws: string): TransactItem => ({
  Put: { TableName: tableName(), Item: { ...rateWindowKey(ws), list_shards: NARROW }, ConditionExpression: 'attribute_not_exists(PK)' },
});

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
    if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
    return readWindowItem(ws);
  }
}

async function readWindowItem(ws: string): Promise<WindowItem> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: rateWindowKey(ws), ConsistentRead: true }));
  return Item;
}

/** The partitions a campaign's fan-out writes its messages to, widening the list first when the campaign is large. */
export async function fanoutListShards(ws: string, recipients: number, now = Date.now()): Promise<number> {
  const item = await readWindowItem(ws);
  const widened = readShards(item) === NARROW && recipients > env.listWidenAboveRecipients ? await widen(ws, now) : item;
  return writeShards(widened, now);
}
