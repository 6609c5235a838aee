import { GetCommand } from '#shared/data/table/commands';
import { db, tableName } from '#shared/data/table/client';
import { cancellationReasons } from '#shared/data/table/transact';
import type { PendingDayCounts, UsageIncrement } from '#shared/data/usage';
import { utcDate } from '#shared/time';
import { SKIPPED_SORT_KEYS } from '#shared/data/table/stream-filters';

/**
 * The rate window item: its key, attributes and reads. A workspace's request admissions
 * (contract §14, admitted by shared/data/rate-window-admission.ts) in one item: the second it counts, the
 * requests admitted in it, the requests admitted in the second before, and `room`, how many this
 * second may admit (twice the limit less the second before's). Every admission is one
 * conditional ADD on it, so requests in flight together can never both take the last place.
 *
 * The same write counts the request for usage (contract §9): the item also holds the counts of
 * its second's UTC day (`day`, `day_requests`, and handler latencies carried to it), which the
 * first window of a later day moves into that day's usage item, in one transaction with its start.
 */
export const rateWindowKey = (ws: string) => ({ PK: `WS#${ws}#RATE`, SK: SKIPPED_SORT_KEYS.rateWindow });

export interface RateWindow {
  second: number;
  admitted: number;
  previous: number;
  room: number;
  /** The day's counts, when the window item holds them (an item written before it counted usage does not). */
  counts?: PendingDayCounts;
}

/** What an admission adds to the day's counts: this request, and latencies of answered ones (shared/http/usage.ts). */
export type AdmissionCount = Omit<UsageIncrement, 'failed'>;

export const windowNames = { '#second': 'second', '#admitted': 'admitted', '#previous': 'previous', '#room': 'room' };
export const dayCountNames = { '#day': 'day', '#dayRequests': 'day_requests', '#dayLatencySum': 'day_latency_ms_sum', '#dayLatencies': 'day_latency_count' };

export const dayOf = (second: number) => utcDate(new Date(second * 1000));

type RawItem = Record<string, { N?: string; S?: string }>;

/** The window as a failed write returned it (raw attribute values: the document client leaves errors as they are). */
function windowOfItem(item: RawItem | undefined): RateWindow | undefined {
  if (!item?.second?.N) return undefined;
  const number = (name: string) => Number(item[name]?.N ?? 0);
  return {
    second: number('second'),
    admitted: number('admitted'),
    previous: number('previous'),
    room: number('room'),
    ...(item.day?.S && {
      counts: { day: item.day.S, requests: number('day_requests'), latencyMsSum: number('day_latency_ms_sum'), latencies: number('day_latency_count') },
    }),
  };
}

/**
 * The window a refused write found, when it came back with the error (ReturnValuesOnConditionCheckFailure
 * puts it on `Item`, or on the window's cancellation reason in a transaction); `contended` when
 * a transaction held the item, which tells nothing about it.
 */
export function oldWindow(error: unknown): RateWindow | undefined | 'contended' | 'not_a_condition_failure' {
  const name = (error as Error | undefined)?.name;
  if (name === 'ConditionalCheckFailedException') return windowOfItem((error as { Item?: RawItem }).Item);
  if (name === 'TransactionConflictException') return 'contended';
  const reasons = cancellationReasons(error);
  if (!reasons) return 'not_a_condition_failure';
  const [window] = reasons;
  if (window?.Code === 'ConditionalCheckFailed') return windowOfItem(window.Item);
  if (reasons.some((reason) => reason.Code === 'TransactionConflict')) return 'contended';
  return 'not_a_condition_failure';
}

/**
 * This admission's addition to the day's counts (zeros when it does not count its request). Every
 * write that sets `day` writes all three counters, so they exist whenever `day` does: a day's
 * counts are conditioned on as found when they move, and a missing one would fail every move.
 */
export const countValues = (count: AdmissionCount | undefined) => ({
  ':requests': count?.requests ?? 0,
  ':latencySum': Math.round(count?.latencyMsSum ?? 0),
  ':latencies': count?.latencies ?? 0,
});
export const COUNTS_ADDED = '#dayRequests :requests, #dayLatencySum :latencySum, #dayLatencies :latencies';
export const COUNTS_SET = '#dayRequests = :requests, #dayLatencySum = :latencySum, #dayLatencies = :latencies';

/** The day's counts the window item holds, not yet moved into their usage item (read by GET /usage). */
export async function windowDayCounts(ws: string): Promise<PendingDayCounts | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: rateWindowKey(ws), ConsistentRead: true }));
  if (typeof Item?.day !== 'string') return undefined;
  return {
    day: Item.day,
    requests: Number(Item.day_requests ?? 0),
    latencyMsSum: Number(Item.day_latency_ms_sum ?? 0),
    latencies: Number(Item.day_latency_count ?? 0),
  };
}
