import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { checkEvent } from './openapi-check';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/**
 * A webhook receiver on 127.0.0.1: records every request and answers with `respond` (200 by
 * default). Every service event it receives (a request with a `webhook-id`) is checked against
 * the API document's `webhooks`; `stop()` fails, naming them, when any was not as documented, so
 * every suite that receives events checks them.
 */
export async function startReceiver(): Promise<{ url: string; received: Received[]; respond: (fn: (n: number) => number) => void; stop(): Promise<void> }> {
  const received: Received[] = [];
  const undocumented: string[] = [];
  let answer: (n: number) => number = () => 200;
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      if (request.headers['webhook-id'] !== undefined) {
        try {
          checkEvent(request.headers, body);
        } catch (error) {
          undocumented.push((error as Error).message);
        }
      }
      received.push({ headers: request.headers, body, at: Date.now() });
      response.writeHead(answer(received.length));
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    respond: (fn) => (answer = fn),
    stop: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (undocumented.length)
        throw new Error(`${undocumented.length} event(s) not as the API document's webhooks describe them:\n${undocumented.join('\n\n')}`);
    },
  };
}
