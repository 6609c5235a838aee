import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hexSha256 } from '#shared/platform/media-hash';

/** Media hashes as the platform gives them (docs/platform-payloads.md): base64 in webhooks, hex from GET /{media-id}. */
const fixture = (name: string) => JSON.parse(readFileSync(join(__dirname, '../fixtures/platform-webhooks', name), 'utf8'));

describe('hexSha256: the service keeps media hashes as lowercase hex', () => {
  const bytes = Buffer.from('a photo of a crushed box');
  const hash = () => createHash('sha256').update(bytes);

  it("turns a webhook's base64 into the hex of the same hash", () => {
    expect(hexSha256(hash().digest('base64'))).toBe(hash().digest('hex'));
  });

  it("reads Meta's image example, whose hash is base64", () => {
    const { sha256 } = fixture('image.json').entry[0].changes[0].value.messages[0].image;
    expect(hexSha256(sha256)).toMatch(/^[0-9a-f]{64}$/);
    expect(Buffer.from(hexSha256(sha256), 'hex').toString('base64')).toBe(sha256);
  });

  it('keeps the hex GET /{media-id} answers, lowercased', () => {
    const { sha256 } = fixture('media-object.json');
    expect(hexSha256(sha256)).toBe(sha256);
    expect(hexSha256(sha256.toUpperCase())).toBe(sha256);
  });

  it('keeps a value in neither form as given', () => {
    expect(hexSha256('abc')).toBe('abc');
  });
});
