import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fault proxy in front of one of the service's own dependencies on the local stack (DynamoDB
 * Local, the SQS emulator): it forwards every request and, for a share of the service's calls,
 * answers as the real service does when it is overloaded or failing, delays, or drops the
 * connection after the request went through (the write happened; its answer is lost).
 * Switched at run time like the simulator's faults: `GET /_faults` shows the settings and
 * `POST /_faults` changes them (docs/limits.md, "Faults in our own dependencies").
 */
export interface DependencyFaults {
  /** Share (0..1) of calls refused as throttled (DynamoDB's ProvisionedThroughputExceededException or ThrottlingException, SQS's ThrottlingException); nothing is applied. */
  throttle_share: number;
  /** Share (0..1) of calls answered HTTP 500 (InternalServerError / InternalFailure); nothing is applied. */
  server_error_share: number;
  /** Share (0..1) of calls held `latency_ms` before they are forwarded. */
  latency_share: number;
  latency_ms: number;
  /** Share (0..1) of calls forwarded and applied whose connection is then closed without an answer. */
  drop_share: number;
}

export type DependencyKind = 'dynamodb' | 'sqs';

export interface FaultCounts {
  forwarded: number;
  throttled: number;
  server_errors: number;
  delayed: number;
  dropped: number;
}

export interface FaultProxy {
  url: string;
  readonly faults: Readonly<DependencyFaults>;
  readonly counts: Readonly<FaultCounts>;
  setFaults(patch: Partial<DependencyFaults>): void;
  stop(): Promise<void>;
}

const NO_FAULTS: DependencyFaults = { throttle_share: 0, server_error_share: 0, latency_share: 0, latency_ms: 0, drop_share: 0 };
const SHARES = ['throttle_share', 'server_error_share', 'latency_share', 'drop_share'] as const;

/** Validates a patch of settings, all or nothing. */
function applyPatch(current: DependencyFaults, patch: unknown): DependencyFaults {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) throw new Error('Fault settings must be a JSON object');
  const next = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    if ((SHARES as readonly string[]).includes(key)) {
      if (typeof value !== 'number' || !(value >= 0 && value <= 1)) throw new Error(`${key} must be a number from 0 to 1`);
      next[key as (typeof SHARES)[number]] = value;
    } else if (key === 'latency_ms') {
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 60_000)
        throw new Error('latency_ms must be an integer from 0 to 60000');
      next.latency_ms = value;
    } else {
      throw new Error(`Unknown fault setting ${key}`);
    }
  }
  return next;
}

/** The calls a fault applies to: the service's own (DynamoDB's data plane, SQS), not the stream reads Lambda itself makes. */
const isServiceCall = (kind: DependencyKind, request: IncomingMessage) =>
  kind === 'sqs' || String(request.headers['x-amz-target'] ?? '').startsWith('DynamoDB_20120810.');

/** The body and headers of a refusal as the real service sends it (JSON protocols, both). */
function refusal(kind: DependencyKind, fault: 'throttle' | 'server_error', random: () => number) {
  if (kind === 'dynamodb') {
    if (fault === 'server_error') return { status: 500, type: 'com.amazonaws.dynamodb.v20120810#InternalServerError', message: 'Internal server error' };
    return random() < 0.5
      ? {
          status: 400,
          type: 'com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException',
          message:
            'The level of configured provisioned throughput for the table was exceeded. Consider increasing your provisioning level with the UpdateTable API.',
        }
      : { status: 400, type: 'com.amazonaws.dynamodb.v20120810#ThrottlingException', message: 'Rate of requests exceeds the allowed throughput.' };
  }
  return fault === 'server_error'
    ? { status: 500, type: 'com.amazon.coral.service#InternalFailure', message: 'We encountered an internal error. Please try again.' }
    : { status: 400, type: 'com.amazonaws.sqs#ThrottlingException', message: 'Rate exceeded' };
}

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

export async function startFaultProxy(options: { target: string; kind: DependencyKind; port?: number; random?: () => number }): Promise<FaultProxy> {
  const target = new URL(options.target);
  const random = options.random ?? Math.random;
  let faults = { ...NO_FAULTS };
  const counts: FaultCounts = { forwarded: 0, throttled: 0, server_errors: 0, delayed: 0, dropped: 0 };
  const chance = (share: number) => share > 0 && random() < share;

  const forward = (request: IncomingMessage, body: Buffer): Promise<{ status: number; headers: IncomingMessage['headers']; body: Buffer }> =>
    new Promise((resolve, reject) => {
      const upstream = httpRequest(
        { host: target.hostname, port: target.port, method: request.method, path: request.url, headers: { ...request.headers, host: target.host } },
        (answer) => void readBody(answer).then((body) => resolve({ status: answer.statusCode ?? 502, headers: answer.headers, body }), reject),
      );
      upstream.on('error', reject);
      upstream.end(body);
    });

  async function handle(request: IncomingMessage, response: ServerResponse) {
    if (request.url === '/_faults') {
      if (request.method === 'POST') {
        try {
          faults = applyPatch(faults, JSON.parse((await readBody(request)).toString() || '{}'));
        } catch (error) {
          response.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: (error as Error).message }));
          return;
        }
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ faults, counts }));
      return;
    }
    const body = await readBody(request);
    if (isServiceCall(options.kind, request)) {
      const fault = chance(faults.throttle_share) ? 'throttle' : chance(faults.server_error_share) ? 'server_error' : undefined;
      if (fault) {
        counts[fault === 'throttle' ? 'throttled' : 'server_errors']++;
        const { status, type, message } = refusal(options.kind, fault, random);
        response.writeHead(status, {
          'content-type': 'application/x-amz-json-1.0',
          'x-amzn-requestid': 'fault-proxy',
          'x-amzn-query-error': `${type.split('#')[1]};Sender`,
        });
        response.end(JSON.stringify({ __type: type, message }));
        return;
      }
      if (chance(faults.latency_share)) {
        counts.delayed++;
        await new Promise((resolve) => setTimeout(resolve, faults.latency_ms));
      }
    }
    const answer = await forward(request, body);
    counts.forwarded++;
    if (isServiceCall(options.kind, request) && chance(faults.drop_share)) {
      // The request was applied; its answer never reaches the caller.
      counts.dropped++;
      request.socket.destroy();
      return;
    }
    response.writeHead(answer.status, answer.headers).end(answer.body);
  }

  const server: Server = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(502).end();
      else response.destroy();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get faults() {
      return faults;
    },
    get counts() {
      return counts;
    },
    setFaults(patch) {
      faults = applyPatch(faults, patch);
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
