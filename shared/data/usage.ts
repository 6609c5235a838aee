import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#shared/data/table/client';
import { isConditionFailure } from '#shared/data/table/conditions';
import { getMany } from '#shared/data/table/pages';
import { queryAll } from '#shared/data/table/query-all';
import { epochSeconds, utcDate } from '#shared/time';

/** Writes to usage counters are spread over this many partitions per workspace. */
const USAGE_SHARDS = 4;
/** Usage counters outlive the longest look-back (90 days) a little, then expire by TTL. */
const RETENTION_DAYS = 100;
const DAY_MS = 86_400_000;

/** A workspace's request counts of one UTC day, on one shard. */
const usageDayKey = (ws: string, shard: number, date: string) => ({ PK: `WS#${ws}#USAGE#${shard}`, SK: date });

export interface UsageDay {
  date: string;
  total_requests: number;
  successful_requests: number;
  failed_requests: number;
  latency_ms_sum: number;
}

/**
 * The shard of a second: each second's requests go to one shard, the next second's to the next,
 * so a busy workspace never heats one partition for long and each shard item also holds the
 * request count of the latest second it took (the rate limit's window, contract §14).
 */
const shardOf = (second: number) => second % USAGE_SHARDS;
const keyOfSecond = (ws: string, second: number) => usageDayKey(ws, shardOf(second), utcDate(new Date(second * 1000)));

export interface RequestRecord {
  successful: boolean;
  latencyMs: number;
  /** The second the request was admitted in, counted in that second's window; none for a refused request. */
  admittedSecond?: number;
}

/**
 * One request in the day's counts, with one UpdateItem, also counting it in its second's window
 * when it was admitted. The first request of a second in its shard finds the window of an
 * earlier second: its condition fails and a second write starts the new window (once a second).
 */
export async function addRequest(ws: string, record: RequestRecord): Promise<void> {
  const second = record.admittedSecond ?? epochSeconds(new Date());
  const counts = 'ADD total_requests :one, successful_requests :ok, failed_requests :failed, latency_ms_sum :latency';
  const values = {
    ':one': 1,
    ':ok': record.successful ? 1 : 0,
    ':failed': record.successful ? 0 : 1,
    ':latency': Math.round(record.latencyMs),
    ':expires': epochSeconds(new Date(second * 1000 + RETENTION_DAYS * DAY_MS)),
  };
  const update = (expression: string, condition?: string, extra: Record<string, number> = {}) =>
    db().send(new UpdateCommand({ TableName: tableName(), Key: keyOfSecond(ws, second), UpdateExpression: expression, ConditionExpression: condition, ExpressionAttributeValues: { ...values, ...extra } }));
  if (record.admittedSecond === undefined) return void (await update(`${counts} SET expires_at = :expires`));
  try {
    return void (await update(`${counts}, window_count :one SET expires_at = :expires`, 'window_second = :second', { ':second': second }));
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
  try {
    return void (await update(`${counts} SET expires_at = :expires, window_second = :second, window_count = :one`, 'attribute_not_exists(window_second) OR window_second < :second', { ':second': second }));
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
  // The shard holds this second's window after all (started meanwhile) or a newer one (a slow request): count it in the window if it is still its own, else in the day only.
  try {
    await update(`${counts}, window_count :one SET expires_at = :expires`, 'window_second = :second', { ':second': second });
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    await update(`${counts} SET expires_at = :expires`);
  }
}

/** Requests admitted in this second and the one before (each second's count lives in its shard item). */
export async function admittedInLastTwoSeconds(ws: string, second: number): Promise<{ current: number; previous: number }> {
  const items = await getMany<{ PK: string; SK: string; window_second?: number; window_count?: number }>([keyOfSecond(ws, second), keyOfSecond(ws, second - 1)]);
  const countOf = (s: number) => Number(items.find((item) => item.window_second === s)?.window_count ?? 0);
  return { current: countOf(second), previous: countOf(second - 1) };
}

/** The day counts from `from` to `to` (YYYY-MM-DD, inclusive), summed over the shards, by day in order. */
export async function usageDays(ws: string, from: string, to: string): Promise<UsageDay[]> {
  const readShard = (shard: number) =>
    queryAll({
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': usageDayKey(ws, shard, from).PK, ':from': from, ':to': to },
    });
  const shards = await Promise.all(Array.from({ length: USAGE_SHARDS }, (_, shard) => readShard(shard)));
  const byDay = new Map<string, UsageDay>();
  for (const item of shards.flat()) {
    const date = item.SK as string;
    const day = byDay.get(date) ?? { date, total_requests: 0, successful_requests: 0, failed_requests: 0, latency_ms_sum: 0 };
    day.total_requests += Number(item.total_requests ?? 0);
    day.successful_requests += Number(item.successful_requests ?? 0);
    day.failed_requests += Number(item.failed_requests ?? 0);
    day.latency_ms_sum += Number(item.latency_ms_sum ?? 0);
    byDay.set(date, day);
  }
  return [...byDay.values()].sort((a, b) => a.date.localeCompare(b.date));
}
