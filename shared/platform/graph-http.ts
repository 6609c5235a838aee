import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

/** A Graph API answer: its status and its body's text. */
export interface GraphResponse {
  ok: boolean;
  status: number;
  json(): Promise<unknown>;
}

/** The request went unanswered within its time: it may have reached the platform (no network code). */
class GraphTimeout extends Error {
  override name = 'TimeoutError';
}

/**
 * Connections kept alive across calls and invocations, as fetch keeps them, and closed after 4 s
 * idle as fetch closes them (undici's keepAliveTimeout): a connection the platform closed while idle
 * is not reused, which would leave a send's outcome unknown. node:http rather than fetch: fetch's
 * streams cost a send's call several times the CPU (docs/performance.md, issue 29); the
 * platform's JSON calls need none of them.
 */
const IDLE_MS = 4_000;
const agents = { 'http:': new HttpAgent({ keepAlive: true, timeout: IDLE_MS }), 'https:': new HttpsAgent({ keepAlive: true, timeout: IDLE_MS }) };

/**
 * One JSON call of the Graph API. Rejects with the network's error (its `code`: ECONNREFUSED,
 * ECONNRESET, …) when no answer came, or a TimeoutError once `timeoutMs` has passed, the answer's
 * body included.
 */
export function graphHttp(url: string, options: { method: string; headers: Record<string, string>; body?: string; timeoutMs: number }): Promise<GraphResponse> {
  const target = new URL(url);
  const secure = target.protocol === 'https:';
  return new Promise((resolve, reject) => {
    // A time-out mid-body fails both the request and its answer: the first outcome stands.
    let settled = false;
    const settle =
      <T>(done: (value: T) => void) =>
      (value: T) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        done(value);
      };
    const request = (secure ? httpsRequest : httpRequest)(
      target,
      {
        agent: agents[secure ? 'https:' : 'http:'],
        method: options.method,
        headers: { ...options.headers, ...(options.body !== undefined && { 'content-length': String(Buffer.byteLength(options.body)) }) },
      },
      (answer: IncomingMessage) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('error', settle(reject));
        answer.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const status = answer.statusCode ?? 0;
          settle(resolve)({ ok: status >= 200 && status < 300, status, json: async () => JSON.parse(text) as unknown });
        });
      },
    );
    const timer = setTimeout(() => request.destroy(new GraphTimeout(`No answer within ${options.timeoutMs} ms`)), options.timeoutMs);
    request.on('error', settle(reject));
    request.end(options.body);
  });
}
