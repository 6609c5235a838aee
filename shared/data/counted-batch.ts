import { GetCommand } from '#shared/data/table/commands';
import { db, tableName } from '#shared/data/table/client';
import { failedConditions, MAX_TRANSACTION_ITEMS, transact, type TransactItem } from '#shared/data/table/transact';
import { counterUpdates } from '#shared/data/table/units';
import { metricsKey } from '#shared/data/campaign-metrics';
import { costDayKey } from '#shared/data/cost-counts';
import { messageCountsKey, numberCountsKey } from '#shared/data/message-counts';
import { sentHourExpiry, sentHourKey } from '#shared/data/sent-hours';
import { epochSeconds } from '#shared/time';
import { SKIPPED_SORT_KEYS } from '#shared/data/table/stream-filters';

/**
 * The mark that a run of stream records has been counted, named after its first record and
 * holding the sequence number of its last: written in the same transaction as the counts, so a
 * batch the stream hands over again counts nothing twice. Kept two days, past the stream's 24 hours.
 */
const countedKey = (firstEventId: string) => ({ PK: `STREAM#COUNTED#${firstEventId}`, SK: SKIPPED_SORT_KEYS.countedRun });
const KEEP_SECONDS = 2 * 24 * 3600;

/** The mark, as the transaction item that fails when that run was counted already. */
const countedMark = (firstEventId: string, throughSequence: string): TransactItem => ({
  Put: {
    TableName: tableName(),
    Item: { ...countedKey(firstEventId), through: throughSequence, expires_at: epochSeconds() + KEEP_SECONDS },
    ConditionExpression: 'attribute_not_exists(PK)',
  },
});

/** The sequence number of the last record counted with the run starting at this record. */
async function countedThrough(firstEventId: string): Promise<string> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: countedKey(firstEventId), ConsistentRead: true }));
  return Item!.through as string;
}

/** Counter items one run may move: a transaction's limit, less the run's mark. */
export const MAX_RUN_COUNTER_ITEMS = MAX_TRANSACTION_ITEMS - 1;

/**
 * One change a run makes: to its workspace's message counts (data/message-counts), with
 * `numberId` to that number's, with `campaignId` to that campaign's metrics (data/campaign-metrics),
 * with `costDay` to the workspace's billed cost of that day (data/cost-counts), or with `hour` to
 * its template messages sent that hour (data/sent-hours).
 */
export interface CountChange {
  ws: string;
  campaignId?: string;
  numberId?: string;
  costDay?: string;
  hour?: number;
  attribute: string;
  delta: number;
}

function counterOf({ ws, campaignId, numberId, costDay, hour }: CountChange, shard: number) {
  if (hour !== undefined) return { key: sentHourKey(ws, hour, shard), expiresAt: sentHourExpiry(hour) };
  if (campaignId) return { key: metricsKey(ws, campaignId, shard) };
  if (costDay) return { key: costDayKey(ws, shard, costDay) };
  if (numberId) return { key: numberCountsKey(ws, numberId, shard) };
  return { key: messageCountsKey(ws, shard) };
}

/**
 * Adds a run's changes to one shard of the counters they name, in one transaction with the run's
 * mark: undefined once added, or, when the run was counted already (its mark exists), the
 * sequence number it was counted through.
 */
export async function addCountedRun(firstEventId: string, throughSequence: string, shard: number, changes: CountChange[]): Promise<string | undefined> {
  const deltas = changes.map((change) => ({ ...counterOf(change, shard), attribute: change.attribute, delta: change.delta }));
  try {
    await transact([countedMark(firstEventId, throughSequence), ...counterUpdates(deltas)]);
    return undefined;
  } catch (error) {
    if (!failedConditions(error)) throw error;
    return countedThrough(firstEventId);
  }
}
