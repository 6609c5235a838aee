import { addRequest, usageDays, type RequestRecord, type UsageDay } from '#shared/data/usage';
import { utcDate } from '#shared/time';
import { usageCost } from '#shared/domain/pricing/usage-cost';

const DAY_MS = 86_400_000;

/** Counts one authenticated request of the workspace (contract §9). */
export const recordUsage = (workspaceId: string, record: RequestRecord): Promise<void> => addRequest(workspaceId, record);

const pct = (part: number, total: number) => (total === 0 ? 0 : Math.round((100 * part) / total));

/** The overview and per-day counts for the last `days` days, today included. */
export async function summarizeUsage(workspaceId: string, days: number) {
  const [from, to] = [utcDate(new Date(Date.now() - (days - 1) * DAY_MS)), utcDate()];
  const [daily, cost] = await Promise.all([usageDays(workspaceId, from, to), usageCost(workspaceId, from, to)]);
  const sum = (field: keyof Omit<UsageDay, 'date'>) => daily.reduce((total, day) => total + day[field], 0);
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
    cost,
  };
}
