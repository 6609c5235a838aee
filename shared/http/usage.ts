import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#shared/data/table/client';
import { keys, USAGE_SHARDS } from '#shared/data/keys';
import { queryAll } from '#shared/data/table/query-all';
import { epochSeconds, utcDate } from '#shared/time';

/** Usage counters outlive the longest look-back (90 days) a little, then expire by TTL. */
const RETENTION_DAYS = 100;
const DAY_MS = 86_400_000;

/** One atomic increment per call, on a random shard so a busy workspace never heats one partition. */
export async function recordUsage(workspaceId: string, successful: boolean, latencyMs: number): Promise<void> {
  const now = new Date();
  const shard = Math.floor(Math.random() * USAGE_SHARDS);
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.usageDay(workspaceId, shard, utcDate(now)),
      UpdateExpression: 'ADD total_requests :one, successful_requests :ok, failed_requests :failed, latency_ms_sum :latency SET expires_at = :expires',
      ExpressionAttributeValues: {
        ':one': 1,
        ':ok': successful ? 1 : 0,
        ':failed': successful ? 0 : 1,
        ':latency': Math.round(latencyMs),
        ':expires': epochSeconds(new Date(now.getTime() + RETENTION_DAYS * DAY_MS)),
      },
    }),
  );
}

interface DayCounts {
  date: string;
  total_requests: number;
  successful_requests: number;
  failed_requests: number;
  latency_ms_sum: number;
}

function readShard(workspaceId: string, shard: number, from: string, to: string) {
  return queryAll({
    KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
    ExpressionAttributeValues: { ':pk': keys.usageDay(workspaceId, shard, from).PK, ':from': from, ':to': to },
  });
}

const pct = (part: number, total: number) => (total === 0 ? 0 : Math.round((100 * part) / total));

/** The overview and per-day counts for the last `days` days, today included. */
export async function summarizeUsage(workspaceId: string, days: number) {
  const to = utcDate();
  const from = utcDate(new Date(Date.now() - (days - 1) * DAY_MS));
  const shards = await Promise.all(Array.from({ length: USAGE_SHARDS }, (_, shard) => readShard(workspaceId, shard, from, to)));
  const byDay = new Map<string, DayCounts>();
  for (const item of shards.flat()) {
    const date = item.SK as string;
    const day = byDay.get(date) ?? { date, total_requests: 0, successful_requests: 0, failed_requests: 0, latency_ms_sum: 0 };
    day.total_requests += Number(item.total_requests ?? 0);
    day.successful_requests += Number(item.successful_requests ?? 0);
    day.failed_requests += Number(item.failed_requests ?? 0);
    day.latency_ms_sum += Number(item.latency_ms_sum ?? 0);
    byDay.set(date, day);
  }
  const daily = [...byDay.values()].sort((a, b) => a.date.localeCompare(b.date));
  const sum = (field: keyof Omit<DayCounts, 'date'>) => daily.reduce((total, day) => total + day[field], 0);
  const total = sum('total_requests');
  const successful = sum('successful_requests');
  return {
    period_days: days,
    overview: {
      total_requests: total,
      successful_requests: successful,
      failed_requests: sum('failed_requests'),
      success_rate_pct: pct(successful, total),
      avg_latency_ms: total === 0 ? 0 : Math.round(sum('latency_ms_sum') / total),
    },
    daily: daily.map(({ date, total_requests, successful_requests, failed_requests }) => ({ date, total_requests, successful_requests, failed_requests })),
  };
}
