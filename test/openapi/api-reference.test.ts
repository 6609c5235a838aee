import { request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { acceptsGzip } from '#shared/http/compressed-text';
import { useTestApi } from '../support/api';

/** The reference page and its script, as a browser fetches them (the browser itself: test/browser). */

const api = useTestApi();

describe('GET /docs', () => {
  it('is an HTML page, open to anyone, that loads only from this origin', async () => {
    const reply = await api.call('GET', '/docs');
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(reply.headers.get('content-security-policy')).toContain("default-src 'self'");
    const sources = [...(reply.body as string).matchAll(/(?:src|spec-url)="([^"]+)"/g)].map((match) => match[1]);
    expect(sources).toEqual(['api/v1/openapi.json', expect.stringMatching(/^docs\/redoc\.standalone\.js\?v=2\.\d+\.\d+$/)]);
  });

  it("serves the renderer's script itself, cacheable", async () => {
    const reply = await api.call('GET', '/docs/redoc.standalone.js?v=any');
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(reply.headers.get('cache-control')).toContain('immutable');
    expect(reply.body).toMatch(/^\/\*! For license information please see redoc\.standalone\.js\.LICENSE\.txt \*\//);
  });
});

/** One GET as it comes over the wire, its body's bytes as sent (fetch would decode them). */
function rawGet(path: string, acceptEncoding?: string): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    const sent = request(`${api.baseUrl}${path}`, { headers: acceptEncoding === undefined ? {} : { 'Accept-Encoding': acceptEncoding } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, bytes: Buffer.concat(chunks) }));
      response.on('error', reject);
    });
    sent.on('error', reject);
    sent.end();
  });
}

describe.each([
  ['the API document', '/api/v1/openapi.json', 'application/json'],
  ["the reference page's renderer", '/docs/redoc.standalone.js?v=any', 'text/javascript; charset=utf-8'],
])('%s, compressed for the clients that take it', (_name, path, contentType) => {
  it('is gzip-compressed for a client that takes gzip, and the same text once decompressed', async () => {
    const plain = await rawGet(path);
    const compressed = await rawGet(path, 'gzip, deflate, br');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(compressed.status).toBe(200);
    expect(compressed.headers['content-encoding']).toBe('gzip');
    expect(compressed.headers['content-type']).toBe(contentType);
    expect(compressed.bytes.length).toBeLessThan(plain.bytes.length / 2);
    expect(gunzipSync(compressed.bytes).equals(plain.bytes)).toBe(true);
    // As API Gateway answers: each with its length, not chunked.
    for (const reply of [plain, compressed]) {
      expect(reply.headers['transfer-encoding']).toBeUndefined();
      expect(reply.headers['content-length']).toBe(String(reply.bytes.length));
    }
  });

  it('is sent as it is to a client that names no encoding, or refuses gzip, and says caches must tell the two apart', async () => {
    for (const acceptEncoding of [undefined, 'identity', 'br', 'gzip;q=0, identity']) {
      const reply = await rawGet(path, acceptEncoding);
      expect(reply.status).toBe(200);
      expect(reply.headers['content-encoding']).toBeUndefined();
      expect(reply.headers['content-type']).toBe(contentType);
      expect(reply.headers.vary).toBe('Accept-Encoding');
      expect(reply.bytes.subarray(0, 2).equals(Buffer.from([0x1f, 0x8b]))).toBe(false);
    }
    expect((await rawGet(path, 'gzip')).headers.vary).toBe('Accept-Encoding');
  });
});

describe('Accept-Encoding, as the answers read it', () => {
  it.each([
    ['gzip, deflate, br', true],
    ['GZIP', true],
    ['x-gzip', true],
    ['br;q=1.0, gzip;q=0.8', true],
    ['*', true],
    ['br, *;q=0.1', true],
    ['gzip ; q=0.5', true],
    ['gzip;q=1.000', true],
    [undefined, false],
    ['', false],
    ['identity', false],
    ['br', false],
    ['gzip;q=0', false],
    ['*;q=0', false],
    ['*, gzip;q=0', false],
    ['gzip ;q=0, *', false],
    ['gzip;q=abc', false],
    ['gzip;q=2', false],
  ])('%s takes gzip: %s', (header, takes) => {
    expect(acceptsGzip(header)).toBe(takes);
  });
});
