/** What GET /usage answers (contract §9). */
import * as v from 'valibot';
import { amount, count, percentage } from '#shared/schemas/responses/common';

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
  cost: v.pipe(
    v.object({
      currency: v.pipe(v.string(), v.examples(['USD'])),
      total: amount(),
      by_category: v.pipe(
        v.record(v.string(), amount()),
        v.description('By the category the platform reported (`marketing`, `utility`, …); categories with no cost left out'),
      ),
      by_country: v.pipe(
        v.record(v.string(), amount()),
        v.description("By the recipient's ISO 3166 country (`unknown` for a number that tells none); countries with no cost left out"),
      ),
    }),
    v.description(
      "What the platform charged for the workspace's delivered messages in the period (by the day each was delivered), by its rate card, in the card's currency",
    ),
  ),
});
