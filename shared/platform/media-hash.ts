/**
 * A media file's SHA-256 as the platform gives it: base64 in message webhooks, hex from
 * `GET /{media-id}` (docs/platform-payloads.md). The service keeps it as lowercase hex, the form it
 * computes when it copies the file; a value in neither form is kept as given.
 */
export function hexSha256(value: string): string {
  if (/^[0-9a-f]{64}$/i.test(value)) return value.toLowerCase();
  if (/^[A-Za-z0-9+/]{43}=$/.test(value)) return Buffer.from(value, 'base64').toString('hex');
  return value;
}
