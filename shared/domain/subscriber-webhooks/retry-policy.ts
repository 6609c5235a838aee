/** Contract §10: retries after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h; then the delivery is failed. */
export const RETRY_DELAYS_SECONDS = [5, 300, 1800, 7200, 18_000, 36_000, 36_000];
export const MAX_ATTEMPTS = RETRY_DELAYS_SECONDS.length + 1;
/** An endpoint whose deliveries have all failed for this long is deactivated. */
export const DEACTIVATE_AFTER_MS = 5 * 24 * 3600 * 1000;
const HONOURS_RETRY_AFTER = new Set([429, 502, 503, 504]);

export type AttemptOutcome =
  | { kind: 'succeeded' }
  | { kind: 'retry'; delaySeconds: number }
  | { kind: 'failed' }
  /** 410 Gone, or failing for five days: the delivery fails and the endpoint is deactivated. */
  | { kind: 'deactivate' };

/** What follows attempt number `attempt` (1-based), given its answer and how long the endpoint has been failing. */
export function afterAttempt(
  attempt: number,
  answer: { ok: boolean; statusCode: number | null; retryAfterSeconds: number | null },
  failingSinceMs: number | null,
  nowMs: number,
): AttemptOutcome {
  if (answer.ok) return { kind: 'succeeded' };
  if (answer.statusCode === 410) return { kind: 'deactivate' };
  if (failingSinceMs !== null && nowMs - failingSinceMs >= DEACTIVATE_AFTER_MS) return { kind: 'deactivate' };
  if (attempt >= MAX_ATTEMPTS) return { kind: 'failed' };
  const scheduled = RETRY_DELAYS_SECONDS[attempt - 1];
  const asked = answer.statusCode !== null && HONOURS_RETRY_AFTER.has(answer.statusCode) ? (answer.retryAfterSeconds ?? 0) : 0;
  return { kind: 'retry', delaySeconds: Math.max(scheduled, asked) };
}
