import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/** A webhook receiver on 127.0.0.1: records every request and answers with `respond` (200 by default). */
export async function startReceiver(): Promise<{ url: string; received: Received[]; respond: (fn: (n: number) => number) => void; stop(): Promise<void> }> {
  const received: Received[] = [];
  let answer: (n: number) => number = () => 200;
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
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
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
