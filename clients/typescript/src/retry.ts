/** How the client retries a request the API refused with 429 `rate_limited`. */
export interface RetryOptions {
  /** Retries after the first attempt (default 4); the last 429 is then returned as the answer. */
  maxRetries?: number;
  /** The longest wait the client accepts (default 60 s): a longer `Retry-After` is returned as the answer. */
  maxDelayMs?: number;
  /** Told before each wait, e.g. to log it. */
  onRetry?: (retry: { attempt: number; delayMs: number; request: Request; response: Response }) => void;
}

const DEFAULT_MAX_RETRIES = 4;
const DEFAULT_MAX_DELAY_MS = 60_000;
/** When a 429 comes without a usable `Retry-After`: the API always sends one, a proxy in front may not. */
const FALLBACK_DELAY_MS = 1_000;

/** `Retry-After` in seconds or as an HTTP date, in milliseconds from now. */
function retryAfterMs(response: Response, now: number): number {
  const value = response.headers.get('Retry-After')?.trim();
  if (!value) return FALLBACK_DELAY_MS;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? FALLBACK_DELAY_MS : Math.max(0, date - now);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A fetch that sends the request again after each 429, no sooner than its `Retry-After` says. Every
 * attempt is a copy of the same request, headers included, so a send keeps its Idempotency-Key.
 */
export function retryingOn429(fetchOnce: (request: Request) => Promise<Response>, options: RetryOptions = {}) {
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  const maxDelayMs = options.maxDelayMs ?? DEFAULT_MAX_DELAY_MS;
  return async (request: Request): Promise<Response> => {
    for (let attempt = 1; ; attempt++) {
      const response = await fetchOnce(request.clone());
      if (response.status !== 429 || attempt > maxRetries) return response;
      const delayMs = retryAfterMs(response, Date.now());
      if (delayMs > maxDelayMs) return response;
      options.onRetry?.({ attempt, delayMs, request, response });
      // The refused answer's body is not needed: free its connection.
      await response.body?.cancel();
      await sleep(delayMs);
    }
  };
}
