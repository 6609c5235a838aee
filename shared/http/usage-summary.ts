/**
 * The usage report of `GET /usage`, apart from shared/http/usage.ts, which every HTTP function's
 * middleware loads: the report's costs reach the rate cards and their phone metadata (≈ 40 KB).
 */
import { usageDays, type UsageDay } from '#shared/data/usage';
import { windowDayCounts } from '#shared/data/rate-window';
import { utcDate } from '#shared/time';
import { usageCost } from '#shared/domain/pricing/usage-cost';

const DAY_MS = 86_400_000;

const pct = (part: number, total: number) => (total === 0 ? 0 : Math.round((100 * part) / total));

/** The overview and per-day counts for the last `days` days, today included. */
export async function summarizeUsage(workspaceId: string, days: number) {
  const [from, to] = [utcDate(new Date(Date.now() - (days - 1) * DAY_MS)), utcDate()];
  const [daily, cost] = await Promise.all([
    windowDayCounts(workspaceId).then((pending) => usageDays(workspaceId, from, to, pending)),
    usageCost(workspaceId, from, to),
  ]);
  const sum = (field: keyof Omit<UsageDay, 'date'>) => daily.reduce((total, day) => total + day[field], 0);
  const total = sum('total_requests');
  const failed = sum('failed_requests');
  const latencies = sum('latency_count');
  return {
    period_days: days,
    overview: {
      total_requests: total,
      successful_requests: total - failed,
      failed_requests: failed,
      success_rate_pct: pct(total - failed, total),
      avg_latency_ms: latencies === 0 ? 0 : Math.round(sum('latency_ms_sum') / latencies),
    },
    daily: daily.map(({ date, total_requests, failed_requests }) => ({
      date,
      total_requests,
      successful_requests: total_requests - failed_requests,
      failed_requests,
    })),
    cost,
  };
}
