import dns from 'node:dns';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseRetryAfter, postWebhook } from '#shared/subscribers/http-delivery';

const production = { allowInsecureLocal: false };
const local = { allowInsecureLocal: true };

type Received = { method?: string; url?: string; headers: http.IncomingHttpHeaders; body: string };

/** A receiver on 127.0.0.1 that records what reaches it, down to bare TCP connections. */
async function receiver(handler: (req: http.IncomingMessage, res: http.ServerResponse) => void) {
  const requests: Received[] = [];
  let connections = 0;
  let closedConnections = 0;
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      requests.push({ method: req.method, url: req.url, headers: req.headers, body });
      handler(req, res);
    });
  });
  server.on('connection', (socket) => {
    connections++;
    socket.on('close', () => closedConnections++);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  servers.push(close);
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    requests,
    connections: () => connections,
    closedConnections: () => closedConnections,
    close,
  };
}

let servers: Array<() => Promise<void>> = [];
afterEach(async () => {
  jest.restoreAllMocks();
  await Promise.all(servers.map((close) => close().catch(() => undefined)));
  servers = [];
});

const body = JSON.stringify({ id: 'evt_1', type: 'ping', data: { webhook_id: 'wh_1' } });

describe('postWebhook', () => {
  it('POSTs JSON with the given headers; 2xx is ok', async () => {
    const server = await receiver((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('thanks'));
    const result = await postWebhook(`${server.url}/hook?x=1`, { 'webhook-id': 'evt_1', 'Content-Type': 'text/evil' }, body, local);
    expect(result).toEqual({ ok: true, statusCode: 200, retryAfterSeconds: null, error: null, durationMs: expect.any(Number) });
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]).toMatchObject({ method: 'POST', url: '/hook?x=1', body });
    expect(server.requests[0].headers).toMatchObject({
      'content-type': 'application/json',
      'webhook-id': 'evt_1',
      'content-length': String(Buffer.byteLength(body)),
    });
  });

  it('counts 204 as ok', async () => {
    const server = await receiver((_req, res) => res.writeHead(204).end());
    expect(await postWebhook(server.url, {}, body, local)).toMatchObject({ ok: true, statusCode: 204 });
  });

  it('reports a 500 as not ok with its status', async () => {
    const server = await receiver((_req, res) => res.writeHead(500).end('boom'));
    expect(await postWebhook(server.url, {}, body, local)).toMatchObject({ ok: false, statusCode: 500, retryAfterSeconds: null, error: 'HTTP 500' });
  });

  it('does not follow a redirect', async () => {
    const target = await receiver((_req, res) => res.writeHead(200).end());
    const server = await receiver((_req, res) => res.writeHead(302, { location: `${target.url}/elsewhere` }).end());
    expect(await postWebhook(server.url, {}, body, local)).toMatchObject({ ok: false, statusCode: 302, error: 'redirect not followed' });
    expect(server.requests).toHaveLength(1);
    expect(target.connections()).toBe(0);
  });

  it('reads Retry-After on 429 and 503, and ignores it elsewhere', async () => {
    const server = await receiver((req, res) => {
      if (req.url === '/429') res.writeHead(429, { 'retry-after': '7' }).end();
      else if (req.url === '/503') res.writeHead(503, { 'retry-after': new Date(Date.now() + 120_000).toUTCString() }).end();
      else res.writeHead(500, { 'retry-after': '7' }).end();
    });
    expect(await postWebhook(`${server.url}/429`, {}, body, local)).toMatchObject({ ok: false, statusCode: 429, retryAfterSeconds: 7 });
    const unavailable = await postWebhook(`${server.url}/503`, {}, body, local);
    expect(unavailable.statusCode).toBe(503);
    expect(unavailable.retryAfterSeconds).toBeGreaterThanOrEqual(118);
    expect(unavailable.retryAfterSeconds).toBeLessThanOrEqual(121);
    expect(await postWebhook(`${server.url}/500`, {}, body, local)).toMatchObject({ statusCode: 500, retryAfterSeconds: null });
  });

  it('times out a server that never answers, and closes the connection', async () => {
    const server = await receiver(() => undefined);
    const result = await postWebhook(server.url, {}, body, local, 300);
    expect(result).toMatchObject({ ok: false, statusCode: null, retryAfterSeconds: null, error: 'timed out after 300 ms' });
    expect(result.durationMs).toBeGreaterThanOrEqual(290);
    expect(result.durationMs).toBeLessThan(2000);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.closedConnections()).toBe(1);
  });

  it('times out a response whose body never finishes', async () => {
    const server = await receiver((_req, res) => {
      res.writeHead(200);
      res.write('partial');
    });
    expect(await postWebhook(server.url, {}, body, local, 300)).toMatchObject({ ok: false, statusCode: null, error: 'timed out after 300 ms' });
  });

  it('stops reading a large response body', async () => {
    const server = await receiver((_req, res) => {
      res.writeHead(200);
      res.write(Buffer.alloc(64 * 1024, 'a')); // and never ends
    });
    expect(await postWebhook(server.url, {}, body, local, 2000)).toMatchObject({ ok: true, statusCode: 200, error: null });
  });

  it('in production refuses 127.0.0.1 without connecting', async () => {
    const server = await receiver((_req, res) => res.writeHead(200).end());
    for (const url of [server.url, `https://127.0.0.1:${server.port}/`, `https://[::ffff:127.0.0.1]:${server.port}/`, `https://localhost:${server.port}/`]) {
      const result = await postWebhook(url, {}, body, production);
      expect(result).toMatchObject({ ok: false, statusCode: null, retryAfterSeconds: null, error: expect.stringMatching(/^address not allowed/) });
    }
    expect(server.connections()).toBe(0);
  });

  it('resolves names through the safe lookup: localhost works in local mode', async () => {
    const server = await receiver((_req, res) => res.writeHead(200).end());
    expect(await postWebhook(`http://localhost:${server.port}/`, {}, body, local)).toMatchObject({ ok: true, statusCode: 200 });
  });

  it('refuses a name that re-resolves to a non-public address at delivery (DNS rebinding)', async () => {
    const server = await receiver((_req, res) => res.writeHead(200).end());
    const lookup = jest
      .spyOn(dns, 'lookup')
      .mockImplementation(((_h: string, _o: unknown, cb: (e: null, a: dns.LookupAddress[]) => void) =>
        cb(null, [{ address: '127.0.0.1', family: 4 }])) as never);
    const result = await postWebhook(`https://rebind.example.test:${server.port}/`, {}, body, production);
    expect(result).toMatchObject({ ok: false, statusCode: null, error: expect.stringMatching(/^address not allowed/) });
    expect(lookup).toHaveBeenCalledWith('rebind.example.test', expect.anything(), expect.any(Function));
    expect(server.connections()).toBe(0);
  });

  it('reports a refused connection', async () => {
    const server = await receiver(() => undefined);
    await server.close();
    expect(await postWebhook(server.url, {}, body, local)).toMatchObject({ ok: false, statusCode: null, error: 'connection refused' });
  });

  it('never throws, even for unusable input', async () => {
    await expect(postWebhook('not a url', {}, body, local)).resolves.toMatchObject({ ok: false, statusCode: null });
    const server = await receiver((_req, res) => res.writeHead(200).end());
    await expect(postWebhook(server.url, { 'x-bad': 'a\nb' }, body, local)).resolves.toMatchObject({ ok: false, statusCode: null, error: expect.any(String) });
    expect(server.connections()).toBe(0);
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter('7', now)).toBe(7);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:01:00 GMT', now)).toBe(60);
    expect(parseRetryAfter('Tue, 31 Dec 2024 00:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('-5', now)).toBeNull();
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(undefined, now)).toBeNull();
  });
});
