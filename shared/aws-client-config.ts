import type { RetryErrorInfo, RetryStrategyV2, RetryToken, StandardRetryToken } from '@smithy/types';
import { env } from '#shared/config';

/**
 * SDK client settings. An endpoint override means the local stack (DynamoDB Local, the SQS
 * emulator, the EventBridge stand-in), which accept any credentials.
 */
export function awsClientConfig(endpoint: string | undefined) {
  if (!endpoint) return {};
  return {
    endpoint,
    region: env.awsRegion,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  };
}

/**
 * How the service's own SDK calls retry and give up (docs/limits.md, "Faults in our own
 * dependencies"): throttling and transient errors (500s, dropped connections, time-outs) are
 * retried, up to eight attempts, with full-jitter exponential back-off (25 ms base, throttling
 * 100 ms base, at most 1 s), and each attempt has a time-out, so a call that hangs is retried.
 * No retry starts past the call's time budget (6 s), so all its attempts end within the
 * shortest function time-out (10 s). Unlike the SDK's standard mode there is no client-wide
 * retry quota: a function instance serves one request at a time, and a caller that still fails
 * is retried whole by its queue, stream or client. DynamoDB Local and the emulators answer far
 * slower than AWS under a test's load, so the local stack gives each attempt, and the call,
 * longer.
 */
const SDK_MAX_ATTEMPTS = 8;
const SDK_BACKOFF_BASE_MS = { transient: 25, throttling: 100 };
const SDK_MAX_BACKOFF_MS = 1_000;
const SDK_CONNECTION_TIMEOUT_MS = 500;
const SDK_REQUEST_TIMEOUT_MS = { aws: 1_000, local: 10_000 };
const SDK_CALL_BUDGET_MS = { aws: 6_000, local: 30_000 };

/** The call budget of the service's own calls: AWS's, or the local stack's (an endpoint override). */
export const callBudgetMs = (endpoint: string | undefined) => (endpoint ? SDK_CALL_BUDGET_MS.local : SDK_CALL_BUDGET_MS.aws);

/** Each attempt's time-outs: to connect, and for the answer (the socket idle that long). */
export const attemptTimeouts = (endpoint: string | undefined) => ({
  connectionTimeout: SDK_CONNECTION_TIMEOUT_MS,
  requestTimeout: endpoint ? SDK_REQUEST_TIMEOUT_MS.local : SDK_REQUEST_TIMEOUT_MS.aws,
});

/**
 * The wait before the next attempt of a call that failed with an error of `errorType` after
 * `retries` retries, or undefined when the call gives up: the error is neither throttling nor
 * transient, the attempts are spent, or the wait would end past the call's budget.
 */
export function nextRetryDelayMs(errorType: string, retries: number, startedAt: number, budgetMs: number): number | undefined {
  const attempt = retries + 1;
  const retryable = errorType === 'THROTTLING' || errorType === 'TRANSIENT';
  const base = errorType === 'THROTTLING' ? SDK_BACKOFF_BASE_MS.throttling : SDK_BACKOFF_BASE_MS.transient;
  const delay = Math.random() * Math.min(SDK_MAX_BACKOFF_MS, base * 2 ** attempt);
  if (!retryable || attempt >= SDK_MAX_ATTEMPTS || Date.now() + delay - startedAt > budgetMs) return undefined;
  return delay;
}

interface TimedRetryToken extends StandardRetryToken {
  startedAt: number;
}

const retryToken = (count: number, delay: number, startedAt: number): TimedRetryToken => ({
  getRetryCount: () => count,
  getRetryDelay: () => delay,
  getRetryCost: () => undefined,
  startedAt,
});

function sdkRetries(budgetMs: number): RetryStrategyV2 {
  return {
    acquireInitialRetryToken: async () => retryToken(0, 0, Date.now()),
    async refreshRetryTokenForRetry(token: RetryToken, error: RetryErrorInfo) {
      const { startedAt } = token as TimedRetryToken;
      const delay = nextRetryDelayMs(error.errorType, token.getRetryCount(), startedAt, budgetMs);
      if (delay === undefined) throw new Error('No retry token available');
      return retryToken(token.getRetryCount() + 1, delay, startedAt);
    },
    recordSuccess: () => undefined,
  };
}

/** Settings for the service's own clients (DynamoDB, SQS, EventBridge, Scheduler, Secrets Manager). */
export function serviceClientConfig(endpoint: string | undefined) {
  return {
    ...awsClientConfig(endpoint),
    retryStrategy: sdkRetries(callBudgetMs(endpoint)),
    requestHandler: attemptTimeouts(endpoint),
  };
}

/**
 * Takes the SDK's logger middleware off a client of the service. It filters every call's input
 * and output for its logger, walking each item of a page, even when the logger is the SDK's
 * no-op default: a quarter of the client-side CPU of reading 30,000 contacts (docs/performance.md).
 * The service logs through Powertools, never through the SDK's logger.
 */
export function withoutSdkLogger<C extends { middlewareStack: { remove(name: string): boolean } }>(client: C): C {
  client.middlewareStack.remove('loggerMiddleware');
  return client;
}
