import { UpdateCommand } from '#shared/data/table/commands';
import { db, tableName } from '#shared/data/table/client';
import { queryAll } from '#shared/data/table/query-all';
import { epochSeconds, utcDate } from '#shared/time';

/** Writes to usage counters are spread over this many partitions per workspace. */
const USAGE_SHARDS = 4;
/** Usage counters outlive the longest look-back (90 days) a little, then expire by TTL. */
export const USAGE_RETENTION_SECONDS = 100 * 86_400;

/** A workspace's request counts of one UTC day, on one shard. */
const usageDayKey = (ws: string, shard: number, date: string) => ({ PK: `WS#${ws}#USAGE#${shard}`, SK: date });

export interface UsageDay {
  date: string;
  total_requests: number;
  failed_requests: number;
  latency_ms_sum: number;
  /** How many requests' latencies latency_ms_sum holds (shared/http/usage.ts carries some to a later write). */
  latency_count: number;
}

/** Each second's requests go to one shard, the next second's to the next, so a busy workspace never heats one partition for long. */
const shardOfNow = (now: Date) => epochSeconds(now) % USAGE_SHARDS;

/** What one write adds to today's counts: requests, failed ones, and handler latencies (their sum and how many). */
export interface UsageIncrement {
  requests: number;
  failed: number;
  latencyMsSum: number;
  latencies: number;
}

/**
 * The update adding `increment` to the workspace's counts of `date` on one shard (alone, or in a
 * transaction). `movedFromWindow`: the counts the rate window kept for the day (shard 0), marked
 * so a reader that saw them still on the window does not add them twice.
 */
export function usageDayUpdate(ws: string, date: string, increment: UsageIncrement, options: { shard?: number; movedFromWindow?: boolean } = {}) {
  return {
    TableName: tableName(),
    Key: usageDayKey(ws, options.shard ?? 0, date),
    UpdateExpression: `ADD total_requests :requests, failed_requests :failed, latency_ms_sum :sum, latency_count :latencies SET expires_at = :expires${options.movedFromWindow ? ', moved_from_window = :moved' : ''}`,
    ExpressionAttributeValues: {
      ...(options.movedFromWindow && { ':moved': true }),
      ':requests': increment.requests,
      ':failed': increment.failed,
      ':sum': Math.round(increment.latencyMsSum),
      ':latencies': increment.latencies,
      ':expires': epochSeconds(new Date(`${date}T00:00:00Z`)) + USAGE_RETENTION_SECONDS,
    },
  };
}

/** Adds to today's counts of the workspace: one UpdateItem. */
export async function addUsage(ws: string, increment: UsageIncrement): Promise<void> {
  const now = new Date();
  await db().send(new UpdateCommand(usageDayUpdate(ws, utcDate(now), increment, { shard: shardOfNow(now) })));
}

/** Counts of one day kept elsewhere until they move into its usage item (the rate window's, shared/data/rate-window.ts). */
export interface PendingDayCounts {
  day: string;
  requests: number;
  latencyMsSum: number;
  latencies: number;
}

/** The day counts from `from` to `to` (YYYY-MM-DD, inclusive), summed over the shards and with `pending` (counts not moved yet), by day in order. */
export async function usageDays(ws: string, from: string, to: string, pending?: PendingDayCounts): Promise<UsageDay[]> {
  const readShard = (shard: number) =>
    queryAll({
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': usageDayKey(ws, shard, from).PK, ':from': from, ':to': to },
    });
  const shards = await Promise.all(Array.from({ length: USAGE_SHARDS }, (_, shard) => readShard(shard)));
  const byDay = new Map<string, UsageDay>();
  const items = shards.flat();
  for (const item of items) {
    const date = item.SK as string;
    const day = byDay.get(date) ?? { date, total_requests: 0, failed_requests: 0, latency_ms_sum: 0, latency_count: 0 };
    day.total_requests += Number(item.total_requests ?? 0);
    day.failed_requests += Number(item.failed_requests ?? 0);
    day.latency_ms_sum += Number(item.latency_ms_sum ?? 0);
    // Items written before latencies could be carried hold one latency per request.
    day.latency_count += Number(item.latency_count ?? item.total_requests ?? 0);
    byDay.set(date, day);
  }
  // A window that admitted only requests counted once answered holds zeros: no day of its own.
  // Counts read on the window before they moved, and read again moved: counted once.
  const movedMeanwhile = items.some((item) => item.SK === pending?.day && item.moved_from_window);
  if (pending && (pending.requests || pending.latencies) && !movedMeanwhile && pending.day >= from && pending.day <= to) {
    const day = byDay.get(pending.day) ?? { date: pending.day, total_requests: 0, failed_requests: 0, latency_ms_sum: 0, latency_count: 0 };
    day.total_requests += pending.requests;
    day.latency_ms_sum += pending.latencyMsSum;
    day.latency_count += pending.latencies;
    byDay.set(pending.day, day);
  }
  return [...byDay.values()].sort((a, b) => a.date.localeCompare(b.date));
}
