import { queryAll } from '#shared/data/table/query-all';

/**
 * Template messages a workspace's numbers handed to the platform, by clock hour: what the launch's
 * `limit_warning` reads as `used_24h` (docs/numbers.md, "Portfolio messaging limits"). The table
 * stream's counting adds to them in the transaction it makes anyway (shared/domain/outbox/counts.ts),
 * one item per hour and counter shard (concurrent runs then rarely conflict), in one partition so
 * a day is one Query. Kept two days.
 */
const partition = (ws: string) => `WS#${ws}#SENT_HOURS`;
const HOUR_MS = 3_600_000;
const KEEP_SECONDS = 2 * 24 * 3600;

/** The clock hour of an instant, as the items name it. */
export const hourOf = (epochMs: number): number => Math.floor(epochMs / HOUR_MS);

/** The counter item of one hour and shard (epoch hours have the same number of digits until the year 2084, so they sort as strings). */
export const sentHourKey = (ws: string, hour: number, shard: number) => ({ PK: partition(ws), SK: `${hour}#${shard}` });

/** When an hour's item may go: two days after the hour. */
export const sentHourExpiry = (hour: number): number => ((hour + 1) * HOUR_MS) / 1000 + KEEP_SECONDS;

/** Template messages sent in the current clock hour and the 23 before it. */
export async function sentInLastDay(ws: string, now = Date.now()): Promise<number> {
  const items = await queryAll<{ sent?: number }>({
    KeyConditionExpression: 'PK = :pk AND SK >= :from',
    ExpressionAttributeValues: { ':pk': partition(ws), ':from': `${hourOf(now) - 23}#` },
    ProjectionExpression: 'sent',
  });
  return items.reduce((sum, item) => sum + Number(item.sent ?? 0), 0);
}
