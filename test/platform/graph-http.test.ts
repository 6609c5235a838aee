import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { graphRequest, PlatformError, PlatformUnreachable } from '#shared/platform/graph-client';

/** A scripted Graph API: each test sets what the next request gets. */
let answer: (response: ServerResponse, socket: Socket) => void;
let server: Server;
let base: string;
const connections = new Set<Socket>();
const received: { method?: string; url?: string; authorization?: string; body: string }[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      received.push({ method: request.method, url: request.url, authorization: request.headers.authorization, body });
      answer(response, request.socket);
    });
  });
  server.on('connection', (socket) => connections.add(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const socket of connections) socket.destroy();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  received.length = 0;
  process.env.GRAPH_TIMEOUT_MS = '300';
});
afterEach(() => {
  delete process.env.GRAPH_TIMEOUT_MS;
});

/** A send that got no usable answer: the error it failed with, whether it may have reached the platform, and how long it took. */
async function unanswered(url = `${base}/v24.0/123/messages`): Promise<{ error: PlatformUnreachable; ms: number }> {
  const started = Date.now();
  const error = await graphRequest(url, 't', {}).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(PlatformUnreachable);
  return { error: error as PlatformUnreachable, ms: Date.now() - started };
}

const json = (status: number, body: unknown) => (response: ServerResponse) => {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
};

describe('Graph API calls over kept-alive connections', () => {
  it('sends the JSON body with the token, answers the JSON, and reuses one connection for calls one after another', async () => {
    answer = json(200, { messages: [{ id: 'wamid.1' }] });
    const before = connections.size;
    const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
    const timersBefore = timers();
    expect(await graphRequest(`${base}/v24.0/123/messages`, 'token-1', { to: '1' })).toEqual({ messages: [{ id: 'wamid.1' }] });
    expect(await graphRequest(`${base}/v24.0/123?fields=id`, 'token-1')).toEqual({ messages: [{ id: 'wamid.1' }] });
    expect(received).toEqual([
      { method: 'POST', url: '/v24.0/123/messages', authorization: 'Bearer token-1', body: '{"to":"1"}' },
      { method: 'GET', url: '/v24.0/123?fields=id', authorization: 'Bearer token-1', body: '' },
    ]);
    expect(connections.size - before).toBe(1);
    // The call's time-out is cleared once it is answered.
    expect(timers()).toBeLessThanOrEqual(timersBefore);
  });

  it("answers the platform's error with its code, title and subcode", async () => {
    answer = json(400, { error: { code: 131026, message: 'Message undeliverable', error_subcode: 2494010, error_data: { details: 'not on WhatsApp' } } });
    const error = await graphRequest(`${base}/v24.0/123/messages`, 't', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlatformError);
    expect(error).toMatchObject({ httpStatus: 400, code: 131026, title: 'Message undeliverable', subcode: 2494010, details: 'not on WhatsApp' });
  });

  it('an accepted call whose answer is not JSON may have been acted on: unreachable, ambiguous', async () => {
    answer = (response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"messages": [');
    };
    expect((await unanswered()).error.ambiguous).toBe(true);
  });

  it('no answer within the time-out: unreachable, ambiguous, once the time-out has passed', async () => {
    answer = () => undefined;
    const { error, ms } = await unanswered();
    expect(ms).toBeGreaterThanOrEqual(280);
    expect(error.ambiguous).toBe(true);
  });

  it('an answer cut off mid-way (the connection dropped after the request was written): unreachable, ambiguous', async () => {
    answer = (response, socket) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      response.write('{"messages"');
      setTimeout(() => socket.destroy(), 20);
    };
    const { error, ms } = await unanswered();
    expect(error.ambiguous).toBe(true);
    // Known when the connection drops, not only once the time-out passes.
    expect(ms).toBeLessThan(250);
  });

  it('an answer whose body stalls after its headers: unreachable, ambiguous, once the time-out has passed', async () => {
    answer = (response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      response.write('{"messages"');
    };
    const { error, ms } = await unanswered();
    expect(ms).toBeGreaterThanOrEqual(280);
    expect(error.ambiguous).toBe(true);
  });

  it('a refused connection never reached the platform: unreachable, not ambiguous', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    // The Graph API's own scheme too (no certificate is needed to be refused).
    for (const scheme of ['http', 'https']) {
      const { error } = await unanswered(`${scheme}://127.0.0.1:${port}/v24.0/123/messages`);
      expect(error.message).toContain('ECONNREFUSED');
      expect(error.ambiguous).toBe(false);
    }
  });
});
