/**
 * How the service's calls to AWS retry and give up (docs/limits.md, "Faults in our own
 * dependencies"): throttling and transient errors (500s, dropped connections, time-outs) are
 * retried, as the SDK's standard mode classifies them, up to eight attempts, with full-jitter exponential back-off (25 ms base, throttling
 * 100 ms base, at most 1 s), and each attempt has a time-out, so a call that hangs is retried.
 * No retry starts past the call's time budget (6 s), so all its attempts end within the
 * shortest function time-out (10 s). Unlike the SDK's standard mode there is no client-wide
 * retry quota: a function instance serves one request at a time, and a caller that still fails
 * is retried whole by its queue, stream or client. DynamoDB Local and the emulators answer far
 * slower than AWS under a test's load, so the local stack gives each attempt, and the call,
 * longer.
 */
const MAX_ATTEMPTS = 8;
const BACKOFF_BASE_MS = { transient: 25, throttling: 100 };
const MAX_BACKOFF_MS = 1_000;
const CONNECTION_TIMEOUT_MS = 500;
const REQUEST_TIMEOUT_MS = { aws: 1_000, local: 10_000 };
const CALL_BUDGET_MS = { aws: 6_000, local: 30_000 };

/** The call budget of the service's own calls: AWS's, or the local stack's (an endpoint override). */
export const callBudgetMs = (endpoint: string | undefined) => (endpoint ? CALL_BUDGET_MS.local : CALL_BUDGET_MS.aws);

/** Each attempt's time-outs: to connect, and for the answer (the socket idle that long). */
export const attemptTimeouts = (endpoint: string | undefined) => ({
  connectionTimeout: CONNECTION_TIMEOUT_MS,
  requestTimeout: endpoint ? REQUEST_TIMEOUT_MS.local : REQUEST_TIMEOUT_MS.aws,
});

/**
 * The wait before the next attempt of a call that failed with an error of `errorType` after
 * `retries` retries, or undefined when the call gives up: the error is neither throttling nor
 * transient, the attempts are spent, or the wait would end past the call's budget.
 */
export function nextRetryDelayMs(errorType: string, retries: number, startedAt: number, budgetMs: number): number | undefined {
  const attempt = retries + 1;
  const retryable = errorType === 'THROTTLING' || errorType === 'TRANSIENT';
  const base = errorType === 'THROTTLING' ? BACKOFF_BASE_MS.throttling : BACKOFF_BASE_MS.transient;
  const delay = Math.random() * Math.min(MAX_BACKOFF_MS, base * 2 ** attempt);
  if (!retryable || attempt >= MAX_ATTEMPTS || Date.now() + delay - startedAt > budgetMs) return undefined;
  return delay;
}
