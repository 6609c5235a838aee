import http from 'node:http';
import https from 'node:https';
import { checkWebhookUrlWithoutDns, safeLookup, type UrlPolicy } from '#shared/subscribers/url-safety';

/** The outcome of one delivery attempt. `statusCode` is null when no response was received in full. */
export interface DeliveryResult {
  ok: boolean;
  statusCode: number | null;
  retryAfterSeconds: number | null;
  error: string | null;
  durationMs: number;
}

/** The body is read (so the exchange completes cleanly) but only this much; nobody looks at it. */
const BODY_CAP_BYTES = 4096;
/** The statuses for which the contract honours Retry-After. */
const RETRY_AFTER_STATUSES = new Set([429, 502, 503, 504]);
/** Set by us; the subscriber's headers cannot replace them. */
const RESERVED_HEADERS = new Set(['content-type', 'content-length', 'host', 'transfer-encoding', 'connection']);

/** `Retry-After` as whole seconds from now: delta-seconds or an HTTP date (never negative); null if absent or unreadable. */
export function parseRetryAfter(value: string | undefined, nowMs: number = Date.now()): number | null {
  if (value === undefined) return null;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v);
  // All three HTTP-date forms start with a day name; this keeps Date.parse's leniency ("-5" is a year) out.
  if (!/^[A-Za-z]{3}/.test(v)) return null;
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - nowMs) / 1000));
}

const ERROR_TEXT: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host name could not be resolved',
  EAI_AGAIN: 'host name could not be resolved',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
};

/** A short message for delivery logs and `last_error`. */
function describeError(err: unknown): string {
  let e = err as (NodeJS.ErrnoException & { errors?: unknown[] }) | undefined;
  // autoSelectFamily reports a failure on every address as one AggregateError with an empty message.
  if (e && !e.message && Array.isArray(e.errors) && e.errors.length > 0) e = e.errors[0] as NodeJS.ErrnoException;
  const code = e?.code;
  const text =
    (code && ERROR_TEXT[code]) ||
    (code === 'EWEBHOOKADDRESS' ? e?.message : undefined) ||
    (e?.message ? `${code ? `${code}: ` : ''}${e.message}` : String(err));
  return text.slice(0, 200);
}

/**
 * POSTs one webhook. Redirects are not followed (the target was validated, a redirect target
 * was not); the whole exchange, DNS to last body byte, is bounded by `timeoutMs`; every
 * address is checked by `safeLookup` as it is connected to. Never throws.
 */
export async function postWebhook(url: string, headers: Record<string, string>, body: string, policy: UrlPolicy, timeoutMs = 15_000): Promise<DeliveryResult> {
  const started = performance.now();
  const result = (r: Omit<DeliveryResult, 'durationMs'>): DeliveryResult => ({ ...r, durationMs: Math.round(performance.now() - started) });
  const failure = (error: string): DeliveryResult => result({ ok: false, statusCode: null, retryAfterSeconds: null, error });

  // Same rules as validation, minus DNS: names are checked by safeLookup, but IP literals never
  // reach a lookup function, so they must be checked here.
  const checked = checkWebhookUrlWithoutDns(url, policy);
  if (!checked.ok) return failure(`address not allowed: ${checked.reason}`);
  const target = checked.url;

  return new Promise<DeliveryResult>((resolve) => {
    let settled = false;
    let req: http.ClientRequest | undefined;
    const finish = (r: DeliveryResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(r);
      req?.destroy(); // also frees the socket when we stop reading a long body
    };
    const timer = setTimeout(() => finish(failure(`timed out after ${timeoutMs} ms`)), timeoutMs);

    try {
      const outgoing: Record<string, string | number> = {};
      for (const [name, value] of Object.entries(headers)) {
        if (!RESERVED_HEADERS.has(name.toLowerCase())) outgoing[name] = value;
      }
      outgoing['content-type'] = 'application/json';
      outgoing['content-length'] = Buffer.byteLength(body);

      const request = target.protocol === 'https:' ? https.request : http.request;
      req = request(
        {
          protocol: target.protocol,
          hostname: target.hostname.replace(/^\[(.*)\]$/, '$1'),
          port: target.port || undefined,
          path: `${target.pathname}${target.search}`,
          method: 'POST',
          headers: outgoing,
          lookup: safeLookup(policy),
          // A fresh connection each time: a pooled socket would skip the lookup check, and one
          // opened under another policy must never be reused.
          agent: false,
        },
        (res) => {
          const statusCode = res.statusCode ?? null;
          let received = 0;
          const complete = (): void => {
            const status = statusCode ?? 0;
            const ok = status >= 200 && status < 300;
            const retryAfterHeader = res.headers['retry-after'];
            finish(
              result({
                ok,
                statusCode,
                retryAfterSeconds: RETRY_AFTER_STATUSES.has(status) ? parseRetryAfter(retryAfterHeader) : null,
                error: ok ? null : status >= 300 && status < 400 ? 'redirect not followed' : `HTTP ${status}`,
              }),
            );
          };
          res.on('data', (chunk: Buffer) => {
            received += chunk.length;
            if (received >= BODY_CAP_BYTES) complete();
          });
          res.on('end', complete);
          res.on('error', (err) => finish(failure(describeError(err))));
        },
      );
      req.on('error', (err) => finish(failure(describeError(err))));
      req.end(body);
    } catch (err) {
      finish(failure(describeError(err)));
    }
  });
}
