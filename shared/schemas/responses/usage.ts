/** What GET /usage answers (contract §9). */
import * as v from 'valibot';
import { count, percentage } from '#shared/schemas/responses/common';

export const usageSummary = v.object({
  period_days: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(90)),
  overview: v.object({
    total_requests: count(),
    successful_requests: count(),
    failed_requests: count(),
    success_rate_pct: percentage(),
    avg_latency_ms: count(),
  }),
  daily: v.pipe(
    v.array(v.object({ date: v.pipe(v.string(), v.isoDate()), total_requests: count(), successful_requests: count(), failed_requests: count() })),
    v.description('One entry per day with requests, oldest first'),
  ),
});
