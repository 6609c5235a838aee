import { Agent as HttpAgent, type ClientRequest, type IncomingMessage, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { SignatureV4 } from '@smithy/signature-v4';
import { attemptTimeouts, callBudgetMs, nextRetryDelayMs } from '#shared/aws-client-config';
import { env } from '#shared/config';
import { Sha256 } from '#shared/signing/sha256';
import type { TableOperation } from '#shared/data/table/commands';

/**
 * DynamoDB's JSON protocol, signed with Signature V4 and sent over a kept-alive connection, with
 * the retries and time-outs of the service's SDK clients (shared/aws-client-config.ts). The SDK's
 * DynamoDB client does the same through a generic middleware stack and schema-driven
 * serialisation: about 180 KB of each bundle and 1.2 ms of CPU a call, against 0.4 ms here
 * (docs/performance.md). Locally, DynamoDB Local (any credentials).
 */

type Json = Record<string, unknown>;

/** DynamoDB's refusal of a call, as the SDK surfaces it: `name` is the error's type (`ConditionalCheckFailedException`), its body's other fields (`Item`, `CancellationReasons`) are on it. */
export class DynamoDbServiceError extends Error {
  readonly $fault: 'client' | 'server';
  readonly $metadata: { httpStatusCode: number; requestId?: string };
  constructor(name: string, message: string, statusCode: number, requestId: string | undefined, fields: Json) {
    super(message);
    Object.assign(this, fields);
    this.name = name;
    this.$fault = statusCode >= 500 ? 'server' : 'client';
    this.$metadata = { httpStatusCode: statusCode, requestId };
  }
}

/** An attempt that took too long to connect or to answer: the SDK's name for it, which its retries treat as transient. */
class TimeoutError extends Error {
  override readonly name = 'TimeoutError';
}

const THROTTLING = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'LimitExceededException',
  'TransactionInProgressException',
  'TooManyRequestsException',
]);
const TRANSIENT_STATUSES = new Set([500, 502, 503, 504]);
const TRANSIENT_NETWORK_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/** How the SDK's retries classify an error (its service-error classification, the cases DynamoDB can give). */
export function errorType(error: unknown): 'THROTTLING' | 'TRANSIENT' | 'OTHER' {
  if (error instanceof DynamoDbServiceError) {
    if (error.$metadata.httpStatusCode === 429 || THROTTLING.has(error.name)) return 'THROTTLING';
    return TRANSIENT_STATUSES.has(error.$metadata.httpStatusCode) ? 'TRANSIENT' : 'OTHER';
  }
  if (error instanceof TimeoutError) return 'TRANSIENT';
  return TRANSIENT_NETWORK_CODES.has((error as { code?: string } | undefined)?.code ?? '') ? 'TRANSIENT' : 'OTHER';
}

/** Binary attribute values (`B`, and each of a `BS`) travel as base64, as the SDK sends them. */
function binaryAsBase64(this: Record<string, unknown>, key: string, value: unknown): unknown {
  // A Buffer's own toJSON has already run on `value`: the value as given is `this[key]`.
  const given = this[key];
  return given instanceof Uint8Array ? Buffer.from(given.buffer, given.byteOffset, given.byteLength).toString('base64') : value;
}

const fromBase64 = (text: string) => new Uint8Array(Buffer.from(text, 'base64'));

/** Binary attribute values back into bytes, as the SDK gives them: the only strings under a `B` key, or in a `BS` list, of DynamoDB's answers. */
function base64AsBinary(key: string, value: unknown): unknown {
  if (key === 'B' && typeof value === 'string') return fromBase64(value);
  if (key === 'BS' && Array.isArray(value)) return (value as unknown[]).map((item) => (typeof item === 'string' ? fromBase64(item) : item));
  return value;
}

/** The answer's JSON; a refusal that is not JSON (a proxy's page) counts by its status alone. */
function readBody(text: string, ok: boolean): Json {
  if (!text) return {};
  try {
    // Only an answer that may hold a binary value pays for the reviver.
    return JSON.parse(text, text.includes('"B') ? base64AsBinary : undefined) as Json;
  } catch (error) {
    if (ok) throw error;
    return {};
  }
}

interface Endpoint {
  url: URL;
  agent: HttpAgent;
  send: typeof httpRequest;
}

/** The client of one endpoint: AWS's for the region, or the local stack's. */
export class DynamoDbHttp {
  private readonly endpoint: Endpoint;
  private readonly signer: SignatureV4;
  private readonly timeouts: { connectionTimeout: number; requestTimeout: number };
  private readonly budgetMs: number;

  constructor(localEndpoint: string | undefined) {
    const region = env.awsRegion;
    const url = new URL(localEndpoint ?? `https://dynamodb.${region}.amazonaws.com`);
    const secure = url.protocol === 'https:';
    // As the SDK's Node.js handler: connections kept alive, up to 50 at once.
    this.endpoint = {
      url,
      agent: secure ? new HttpsAgent({ keepAlive: true, maxSockets: 50 }) : new HttpAgent({ keepAlive: true, maxSockets: 50 }),
      send: secure ? httpsRequest : httpRequest,
    };
    const credentials = localEndpoint ? { accessKeyId: 'local', secretAccessKey: 'local' } : env.awsCredentials;
    this.signer = new SignatureV4({ service: 'dynamodb', region, credentials, sha256: Sha256 });
    this.timeouts = attemptTimeouts(localEndpoint);
    this.budgetMs = callBudgetMs(localEndpoint);
  }

  /** One call, retried on throttling and transient errors until it succeeds, gives up or runs past its budget. */
  async call(operation: TableOperation, body: Json): Promise<Json> {
    const payload = JSON.stringify(body, binaryAsBase64);
    const startedAt = Date.now();
    for (let retries = 0; ; retries++) {
      try {
        return await this.attempt(operation, payload);
      } catch (error) {
        const delay = nextRetryDelayMs(errorType(error), retries, startedAt, this.budgetMs);
        if (delay === undefined) throw error;
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }

  private async attempt(operation: TableOperation, payload: string): Promise<Json> {
    const { url, agent, send } = this.endpoint;
    const signed = await this.signer.sign({
      method: 'POST',
      protocol: url.protocol,
      hostname: url.hostname,
      port: url.port ? Number(url.port) : undefined,
      path: '/',
      query: {},
      headers: { host: url.host, 'content-type': 'application/x-amz-json-1.0', 'x-amz-target': `DynamoDB_20120810.${operation}` },
      body: payload,
    });
    const response = await new Promise<{ status: number; headers: IncomingMessage['headers']; text: string }>((resolve, reject) => {
      const request: ClientRequest = send(
        {
          agent,
          protocol: url.protocol,
          hostname: url.hostname,
          port: url.port,
          method: 'POST',
          path: '/',
          headers: { ...signed.headers, 'content-length': Buffer.byteLength(payload) },
        },
        (answer) => {
          const chunks: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => chunks.push(chunk));
          answer.on('end', () => resolve({ status: answer.statusCode ?? 0, headers: answer.headers, text: Buffer.concat(chunks).toString('utf8') }));
          answer.on('error', reject);
        },
      );
      request.on('error', reject);
      request.setTimeout(this.timeouts.requestTimeout, () => request.destroy(new TimeoutError(`No answer within ${this.timeouts.requestTimeout} ms`)));
      request.on('socket', (socket) => {
        if (!socket.connecting) return;
        const timer = setTimeout(
          () => request.destroy(new TimeoutError(`Not connected within ${this.timeouts.connectionTimeout} ms`)),
          this.timeouts.connectionTimeout,
        );
        socket.once('connect', () => clearTimeout(timer));
        request.once('close', () => clearTimeout(timer));
      });
      request.end(payload);
    });
    const ok = response.status >= 200 && response.status < 300;
    const parsed = readBody(response.text, ok);
    if (ok) return parsed;
    // `com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException`: the name is after the `#`.
    const type = String(response.headers['x-amzn-errortype'] ?? parsed.__type ?? 'UnknownError');
    const name = type.split('#').pop()!.split(':')[0];
    const { __type, message, Message, ...fields } = parsed;
    const requestId = response.headers['x-amzn-requestid'] as string | undefined;
    throw new DynamoDbServiceError(name, String(message ?? Message ?? name), response.status, requestId, fields);
  }
}
