import { addUsage, usageDays, type UsageDay } from '#shared/data/usage';
import { utcDate } from '#shared/time';
import { usageCost } from '#shared/domain/pricing/usage-cost';

const DAY_MS = 86_400_000;

/**
 * Handler latencies of answered requests not written yet, by workspace: each is added by the
 * workspace's next usage write from this process. The count itself is written alongside the
 * handler's work, not after the answer, so it adds no round trip to the request; only a
 * latency can wait for a later write (and is lost with the process if none comes).
 */
const carried = new Map<string, { sumMs: number; count: number }>();

function takeCarried(workspaceId: string) {
  const latencies = carried.get(workspaceId) ?? { sumMs: 0, count: 0 };
  carried.delete(workspaceId);
  return latencies;
}

/** Counts an admitted request of the workspace (contract §9) while it is handled, with the latencies carried so far. */
export function countRequest(workspaceId: string): Promise<void> {
  const { sumMs, count } = takeCarried(workspaceId);
  return addUsage(workspaceId, { requests: 1, failed: 0, latencyMsSum: sumMs, latencies: count });
}

/**
 * Completes a request's usage once it is answered: a counted success only carries its latency
 * to the next write; a counted failure adds itself to the failed ones; a request not counted
 * yet (refused before it was admitted, or one that counts only once answered) adds itself whole.
 */
export function recordAnswer(workspaceId: string, answer: { counted: boolean; successful: boolean; latencyMs: number }): Promise<void> | undefined {
  if (answer.counted && answer.successful) {
    const latencies = carried.get(workspaceId) ?? { sumMs: 0, count: 0 };
    carried.set(workspaceId, { sumMs: latencies.sumMs + answer.latencyMs, count: latencies.count + 1 });
    return undefined;
  }
  const { sumMs, count } = takeCarried(workspaceId);
  return addUsage(workspaceId, {
    requests: answer.counted ? 0 : 1,
    failed: answer.successful ? 0 : 1,
    latencyMsSum: sumMs + answer.latencyMs,
    latencies: count + 1,
  });
}

const pct = (part: number, total: number) => (total === 0 ? 0 : Math.round((100 * part) / total));

/** The overview and per-day counts for the last `days` days, today included. */
export async function summarizeUsage(workspaceId: string, days: number) {
  const [from, to] = [utcDate(new Date(Date.now() - (days - 1) * DAY_MS)), utcDate()];
  const [daily, cost] = await Promise.all([usageDays(workspaceId, from, to), usageCost(workspaceId, from, to)]);
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
