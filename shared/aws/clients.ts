import { NodeHttpHandler } from '@smithy/node-http-handler';
import type { RetryErrorInfo, RetryStrategyV2, StandardRetryToken } from '@smithy/types';
import { env } from '#shared/config';

/**
 * The settings of the service's AWS SDK clients (DynamoDB and its streams, SQS, EventBridge, the
 * Scheduler, Secrets Manager; the media bucket's S3 client takes the same access and its own
 * retries, shared/media/bucket.ts), and how each is made once per process.
 *
 * Retries and time-outs (docs/limits.md, "Faults in our own dependencies"): throttling and
 * transient errors (500, 502, 503, 504, dropped or refused connections, time-outs), as the SDK
 * classifies them, are retried up to eight attempts, with full-jitter exponential back-off (25 ms
 * base, throttling 100 ms, at most 1 s), and each attempt has a time-out (500 ms to connect, 1 s
 * for the whole attempt), so a call that hangs is retried. No retry starts past the call's budget
 * (6 s), so all its attempts end within the shortest function time-out (10 s). The SDK's standard
 * strategy is not used as it comes: it has no budget, waits 1 s base on throttling, and keeps a
 * client-wide retry quota, which a function instance serving one request at a time does not need
 * (a caller that still fails is retried whole by its queue, stream or client). DynamoDB Local and
 * the emulators answer far slower than AWS under a test's load, so the local stack (an endpoint
 * override) gives each attempt, and the call, longer.
 */
export const MAX_ATTEMPTS = 8;
const BACKOFF_BASE_MS = { transient: 25, throttling: 100 };
const MAX_BACKOFF_MS = 1_000;
/**
 * In AWS a connection that takes over 500 ms is retried on a fresh one. Locally, a burst of new
 * connections can fill DynamoDB Local's accept queue (Java's default backlog, 50) while its JVM
 * is starved of CPU; the kernel then drops the SYNs and the client sends them again only after 1 s
 * and 3 s, so a 500 ms time-out fails every attempt of a call until the queue drains.
 */
export const CONNECTION_TIMEOUT_MS = { aws: 500, local: 5_000 };
const REQUEST_TIMEOUT_MS = { aws: 1_000, local: 10_000 };
const CALL_BUDGET_MS = { aws: 6_000, local: 30_000 };

/** The emulators take any credentials; in AWS, the SDK's default chain finds the function's role in its environment. */
const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };

/** Where a client calls and as whom: the region's endpoint with the default credentials, or the local stack's endpoint (any credentials). */
export function awsAccess(endpoint: string | undefined) {
  return { region: env.awsRegion, ...(endpoint && { endpoint, credentials: LOCAL_CREDENTIALS }) };
}

interface BudgetedToken extends StandardRetryToken {
  startedAt: number;
}

const retryToken = (count: number, delay: number, startedAt: number): BudgetedToken => ({
  getRetryCount: () => count,
  getRetryDelay: () => delay,
  getRetryCost: () => undefined,
  startedAt,
});

/** The retry policy above as the SDK's retry strategy: the SDK classifies each error (`errorType`) and waits the delay given; this decides. */
export class BudgetedRetries implements RetryStrategyV2 {
  constructor(private readonly budgetMs: number) {}

  async acquireInitialRetryToken(): Promise<BudgetedToken> {
    return retryToken(0, 0, Date.now());
  }

  async refreshRetryTokenForRetry(token: StandardRetryToken, { errorType }: RetryErrorInfo): Promise<BudgetedToken> {
    const { startedAt } = token as BudgetedToken;
    const attempt = token.getRetryCount() + 1;
    const base = errorType === 'THROTTLING' ? BACKOFF_BASE_MS.throttling : BACKOFF_BASE_MS.transient;
    const delay = Math.random() * Math.min(MAX_BACKOFF_MS, base * 2 ** attempt);
    const retryable = errorType === 'THROTTLING' || errorType === 'TRANSIENT';
    if (!retryable || attempt >= MAX_ATTEMPTS || Date.now() + delay - startedAt > this.budgetMs) throw new Error('No retry token available');
    return retryToken(attempt, delay, startedAt);
  }

  recordSuccess(): void {}
}

/**
 * The SDK's Node.js handler with the attempt time-outs above, connections kept alive across
 * invocations (at most 50 at once per endpoint, the SDK's default). `throwOnRequestTimeout`: without
 * it the SDK only logs a warning when an attempt outlives `requestTimeout`.
 */
export const requestHandler = (options: { connectionTimeout: number; requestTimeout?: number; socketTimeout?: number }) =>
  new NodeHttpHandler({
    ...options,
    throwOnRequestTimeout: true,
    httpAgent: { keepAlive: true, maxSockets: 50 },
    httpsAgent: { keepAlive: true, maxSockets: 50 },
  });

/** Settings of a client of the service's own calls: access, retries and time-outs as above. */
export function serviceClientConfig(endpoint: string | undefined) {
  const local = endpoint !== undefined;
  return {
    ...awsAccess(endpoint),
    maxAttempts: MAX_ATTEMPTS,
    retryStrategy: new BudgetedRetries(local ? CALL_BUDGET_MS.local : CALL_BUDGET_MS.aws),
    requestHandler: requestHandler({
      connectionTimeout: local ? CONNECTION_TIMEOUT_MS.local : CONNECTION_TIMEOUT_MS.aws,
      requestTimeout: local ? REQUEST_TIMEOUT_MS.local : REQUEST_TIMEOUT_MS.aws,
    }),
  };
}

/**
 * Takes the SDK's logger middleware off a client. It filters every call's input and output for its
 * logger, walking each item of a page, even when the logger is the SDK's no-op default: a quarter of
 * the client-side CPU of reading 30,000 contacts (docs/performance.md). The service logs through
 * Powertools, never through the SDK's logger.
 */
export function withoutSdkLogger<Client extends { middlewareStack: { remove(name: string): boolean } }>(client: Client): Client {
  client.middlewareStack.remove('loggerMiddleware');
  return client;
}

/**
 * A client per process, made on first use (after the local stack has set its endpoints) and kept
 * across invocations; a new one only when `endpoint()` changes (a benchmark that moves on to a
 * fresh local stack, a test's scripted service).
 */
export function perEndpoint<Client>(endpoint: () => string | undefined, make: (endpoint: string | undefined) => Client): () => Client {
  let instance: { endpoint: string | undefined; client: Client } | undefined;
  return () => {
    const current = endpoint();
    if (!instance || instance.endpoint !== current) instance = { endpoint: current, client: make(current) };
    return instance.client;
  };
}
