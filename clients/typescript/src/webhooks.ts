import { createHmac, timingSafeEqual } from 'node:crypto';
import type { webhooks } from './schema';

/** Every event the service posts, by type: `event.type` narrows `event.data`. */
export type WebhookEvent = {
  [Type in keyof webhooks]: webhooks[Type]['post']['requestBody']['content']['application/json'];
}[keyof webhooks];

export type WebhookEventType = WebhookEvent['type'];

export class WebhookVerificationError extends Error {
  override name = 'WebhookVerificationError';
}

const DEFAULT_TOLERANCE_SECONDS = 5 * 60;

type Headers = Record<string, string | string[] | undefined> | globalThis.Headers;

function header(headers: Headers, name: string): string {
  const value = headers instanceof globalThis.Headers ? headers.get(name) : (headers[name] ?? headers[name.toLowerCase()]);
  if (typeof value !== 'string' || !value) throw new WebhookVerificationError(`missing header ${name}`);
  return value;
}

/** The HMAC key: the base64 after `whsec_`, as Standard Webhooks libraries read it. */
const keyOf = (secret: string) => Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');

/**
 * Checks a delivery as the Standard Webhooks specification says, and returns its event: one of the
 * `v1` signatures (two during a secret rotation) must be the HMAC-SHA256 of
 * "{webhook-id}.{webhook-timestamp}.{body}", and the timestamp within `toleranceSeconds` of now
 * (replays of an old delivery are refused). `body` must be the raw bytes received, before any
 * JSON parsing. Throws WebhookVerificationError otherwise.
 */
export function verifyWebhook(secret: string, headers: Headers, body: string | Buffer, options: { toleranceSeconds?: number; now?: Date } = {}): WebhookEvent {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!/^\d+$/.test(timestamp)) throw new WebhookVerificationError('webhook-timestamp is not Unix seconds');
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  if (Math.abs(now - Number(timestamp)) > (options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS))
    throw new WebhookVerificationError('webhook-timestamp is too far from now');
  const text = typeof body === 'string' ? body : body.toString('utf8');
  const expected = createHmac('sha256', keyOf(secret)).update(`${id}.${timestamp}.${text}`, 'utf8').digest();
  const matches = signatures.split(' ').some((signature) => {
    const [version, value] = signature.split(',', 2);
    const given = Buffer.from(value ?? '', 'base64');
    return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) throw new WebhookVerificationError('no signature matches');
  return JSON.parse(text) as WebhookEvent;
}
