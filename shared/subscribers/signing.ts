import { createHmac, randomBytes } from 'node:crypto';

/**
 * Standard Webhooks signing (https://www.standardwebhooks.com), so subscribers can verify
 * deliveries with its public libraries in any language.
 */

const SECRET_PREFIX = 'whsec_';

export type SignatureHeaders = Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string>;

/** `whsec_` + base64 of 32 random bytes: the format Standard Webhooks libraries accept. */
export function newSigningSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

/** The HMAC key is the base64-decoded part after `whsec_` (the libraries strip the prefix the same way). */
function secretKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
}

/**
 * Headers for one delivery attempt. One `v1,` signature per secret, space-separated, so during a
 * rotation a receiver holding either the old or the new secret can verify. `body` must be the
 * exact bytes sent: the signature covers "{id}.{timestamp}.{body}".
 */
export function signatureHeaders(input: { id: string; timestampSeconds: number; body: string; secrets: string[] }): SignatureHeaders {
  if (input.secrets.length === 0) throw new Error('signatureHeaders needs at least one secret');
  const timestamp = String(Math.floor(input.timestampSeconds));
  const signedContent = `${input.id}.${timestamp}.${input.body}`;
  const signatures = input.secrets.map((secret) => `v1,${createHmac('sha256', secretKey(secret)).update(signedContent, 'utf8').digest('base64')}`);
  return { 'webhook-id': input.id, 'webhook-timestamp': timestamp, 'webhook-signature': signatures.join(' ') };
}
