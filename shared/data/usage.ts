import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#shared/data/table/client';
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

/** Each second's requests go to one shard, the next second's to the next, so a busy workspace never heats one partition for long. */
const keyOfNow = (ws: string, now: Date) => usageDayKey(ws, epochSeconds(now) % USAGE_SHARDS, utcDate(now));

export interface RequestRecord {
  successful: boolean;
  latencyMs: number;
}

/** One request in the day's counts: one UpdateItem. */
export async function addRequest(ws: string, record: RequestRecord): Promise<void> {
  const now = new Date();
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keyOfNow(ws, now),
      UpdateExpression: 'ADD total_requests :one, successful_requests :ok, failed_requests :failed, latency_ms_sum :latency SET expires_at = :expires',
      ExpressionAttributeValues: {
        ':one': 1,
        ':ok': record.successful ? 1 : 0,
        ':failed': record.successful ? 0 : 1,
        ':latency': Math.round(record.latencyMs),
        ':expires': epochSeconds(new Date(now.getTime() + RETENTION_DAYS * DAY_MS)),
      },
    }),
  );
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
