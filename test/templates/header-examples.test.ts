import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { useTestApi, type TestWorkspace } from '../support/api';

/**
 * Contract §18: a media header's example file. A URL is downloaded behind the webhook URLs'
 * guard (https and public addresses only; this suite runs in local mode, which also allows http
 * and loopback); a file that is missing, over 5 MB or not of the header's type is a 422 on the
 * example's field, and nothing reaches the platform.
 */
const api = useTestApi();

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
let files: Server;
let filesUrl: string;
let ws: TestWorkspace;
beforeAll(async () => {
  files = createServer((req, res) => {
    if (req.url === '/big.png') return res.writeHead(200, { 'Content-Type': 'image/png' }).end(Buffer.alloc(5 * 1024 * 1024 + 1));
    if (req.url === '/page.html') return res.writeHead(200, { 'Content-Type': 'text/html' }).end('<html></html>');
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
  ws = await api.workspace();
});
afterAll(() => new Promise((resolve) => files.close(resolve)));

const call = (method: string, path: string, body?: unknown) => api.call(method, path, { key: ws.key, body });
const imageHeader = (example: Record<string, unknown>) => ({ type: 'HEADER', format: 'IMAGE', example });
const promo = (name: string, header: Record<string, unknown>) => ({
  name,
  language: 'en_US',
  category: 'MARKETING',
  components: [header, { type: 'BODY', text: 'Autumn sale: {{1}} off.', example: { body_text: [['30%']] } }],
});

describe('a media header example that cannot be used', () => {
  it.each([
    ['not http(s)', 'ftp://127.0.0.1/autumn.png'],
    ['a private address', 'http://10.0.0.7/autumn.png'],
    ['a link-local address (cloud metadata)', 'http://169.254.169.254/latest/meta-data'],
    ['a 404', '/missing.png'],
    ['over 5 MB', '/big.png'],
    ['not an image', '/page.html'],
  ])('refuses a header_url that is %s with 422 on the field', async (_what, url) => {
    const reply = await call('POST', '/api/v1/templates', promo('bad_example', imageHeader({ header_url: url.startsWith('/') ? `${filesUrl}${url}` : url })));
    expect(reply.status).toBe(422);
    expect(reply.body.error.details.map((d: { field: string }) => d.field)).toEqual(['components.0.example.header_url']);
  });

  it('refuses base64 of a type the header does not take', async () => {
    const reply = await call(
      'POST',
      '/api/v1/templates',
      promo('bad_inline', imageHeader({ header_base64: PNG.toString('base64'), mime_type: 'application/pdf' })),
    );
    expect(reply.status).toBe(422);
    expect(reply.body.error.details.map((d: { field: string }) => d.field)).toEqual(['components.0.example.mime_type']);
  });
});
