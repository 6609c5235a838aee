import { createHmac } from 'node:crypto';

/** `sha256=<hex HMAC-SHA256 of the raw body with the app secret>`, the value of `X-Hub-Signature-256`. */
export const signatureOf = (raw: Buffer | string, appSecret: string): string => `sha256=${createHmac('sha256', appSecret).update(raw).digest('hex')}`;

/** The outcome of one delivery attempt: the HTTP status the receiver answered, or `null` and why it failed. */
export interface DeliveryResult {
  status: number | null;
  error?: string;
}

export interface WebhookSenderOptions {
  appSecret: string;
  url?: string;
  /** Waits before the successive retries of a failed delivery; after the last one it is dropped. */
  retryDelaysMs?: readonly number[];
  /** Per-attempt time-out. */
  timeoutMs?: number;
  log?: (message: string) => void;
}

export const DEFAULT_RETRY_DELAYS_MS = [250, 1000, 3000] as const;
const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * Signs and POSTs webhooks to the configured URL, retrying failed deliveries (network error, time-out,
 * non-2xx) a few times with back-off like the platform, then dropping them. Owns every timer it starts
 * (delayed sends and retries) so that `stop()` cancels them all and aborts deliveries in flight.
 */
export class WebhookSender {
  private url: string | undefined;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly aborter = new AbortController();
  private readonly retryDelaysMs: readonly number[];
  private readonly timeoutMs: number;
  private readonly log: (message: string) => void;

  constructor(private readonly options: WebhookSenderOptions) {
    this.url = options.url;
    this.retryDelaysMs = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.log = options.log ?? ((message) => console.warn(`[simulator] ${message}`));
  }

  setUrl(url: string): void {
    this.url = new URL(url).toString();
  }

  get hasUrl(): boolean {
    return this.url !== undefined;
  }

  get stopped(): boolean {
    return this.aborter.signal.aborted;
  }

  /** Runs `task` after `delayMs`, unless `stop()` comes first. */
  later(delayMs: number, task: () => void): void {
    if (this.stopped) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (!this.stopped) task();
    }, delayMs);
    timer.unref();
    this.timers.add(timer);
  }

  /**
   * Delivers `payload` (serialized once; the signature covers exactly the bytes sent). Resolves with the
   * first attempt's result; if that failed, retries go on in the background. Never rejects.
   */
  async post(payload: unknown): Promise<DeliveryResult> {
    return this.deliver(Buffer.from(JSON.stringify(payload)), 0);
  }

  /** Cancels every pending delayed send and retry, and aborts deliveries in flight. */
  stop(): void {
    this.aborter.abort();
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  private async deliver(raw: Buffer, attempt: number): Promise<DeliveryResult> {
    const url = this.url;
    if (!url) return { status: null, error: 'no webhook URL configured' };
    if (this.stopped) return { status: null, error: 'simulator stopped' };
    const result = await this.attempt(url, raw);
    const delivered = result.status !== null && result.status >= 200 && result.status < 300;
    if (!delivered && !this.stopped) {
      const reason = result.error ?? `HTTP ${result.status}`;
      if (attempt < this.retryDelaysMs.length) {
        this.later(this.retryDelaysMs[attempt], () => void this.deliver(raw, attempt + 1));
      } else {
        this.log(`webhook to ${url} dropped after ${attempt + 1} attempts (${reason})`);
      }
    }
    return result;
  }

  private async attempt(url: string, raw: Buffer): Promise<DeliveryResult> {
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'User-Agent': 'facebookexternalua',
          'X-Hub-Signature-256': signatureOf(raw, this.options.appSecret),
        },
        body: raw,
        signal: AbortSignal.any([this.aborter.signal, AbortSignal.timeout(this.timeoutMs)]),
      });
      await response.arrayBuffer().catch(() => undefined);
      return { status: response.status };
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code;
      return { status: null, error: cause ?? (error as Error).message };
    }
  }
}
