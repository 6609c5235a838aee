import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { deleteObject, getText, listKeys, mediaLink, putObject } from '#shared/media/bucket';

/**
 * The media bucket's calls (shared/media/bucket.ts) as S3 receives them, from a scripted service:
 * each names the bucket's owner (contract §22; the local emulator does not check it), a put
 * carries its type and disposition, and a link asks S3 for a download and expires.
 */
const seen: { method?: string; url?: string; headers: IncomingHttpHeaders; body: Buffer }[] = [];
let server: Server;
const KEYS = ['S3_ENDPOINT', 'MEDIA_BUCKET', 'MEDIA_BUCKET_OWNER'] as const;
const saved = KEYS.map((key) => [key, process.env[key]] as const);

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      seen.push({ method: request.method, url: request.url, headers: request.headers, body: Buffer.concat(chunks) });
      if (request.method === 'GET' && request.url?.includes('list-type=2')) {
        const keys = ['ws_1/m/a.jpg', 'ws_1/m/b & c.pdf'].map((key) => `<Contents><Key>${key.replace('&', '&amp;')}</Key></Contents>`).join('');
        return response
          .writeHead(200, { 'content-type': 'application/xml' })
          .end(`<?xml version="1.0"?><ListBucketResult><Name>media</Name>${keys}</ListBucketResult>`);
      }
      if (request.method === 'GET') return response.writeHead(200, { 'content-type': 'application/json' }).end('{"entry":[]}');
      response.writeHead(request.method === 'DELETE' ? 204 : 200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  Object.assign(process.env, {
    S3_ENDPOINT: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    MEDIA_BUCKET: 'media',
    MEDIA_BUCKET_OWNER: '111122223333',
  });
});

afterAll(async () => {
  for (const [key, value] of saved) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

test('every call names the bucket and its owner; a put carries its type and disposition', async () => {
  await putObject('ws_1/m/a.jpg', new Uint8Array([1, 2, 3]), 'image/jpeg', 'attachment');
  expect(await getText('platform-webhooks/w.json')).toBe('{"entry":[]}');
  expect(await listKeys('ws_1/')).toEqual(['ws_1/m/a.jpg', 'ws_1/m/b & c.pdf']);
  await deleteObject('ws_1/m/a.jpg');

  expect(seen.map(({ method, url }) => `${method} ${url?.split('?')[0]}`)).toEqual([
    'PUT /media/ws_1/m/a.jpg',
    'GET /media/platform-webhooks/w.json',
    'GET /media/',
    'DELETE /media/ws_1/m/a.jpg',
  ]);
  for (const call of seen) expect(call.headers['x-amz-expected-bucket-owner']).toBe('111122223333');
  const [put] = seen;
  expect(put.headers).toMatchObject({ 'content-type': 'image/jpeg', 'content-disposition': 'attachment' });
  expect([...put.body]).toEqual([1, 2, 3]);
  expect(new URL(seen[2].url!, 'http://s3').searchParams.get('prefix')).toBe('ws_1/');
});

test('a link is presigned for a download, valid 15 minutes', async () => {
  const link = new URL(await mediaLink('ws_1/m/b c.pdf'));
  expect(link.pathname).toBe('/media/ws_1/m/b%20c.pdf');
  expect(link.searchParams.get('response-content-disposition')).toBe('attachment');
  expect(link.searchParams.get('X-Amz-Expires')).toBe('900');
  expect(link.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
});
