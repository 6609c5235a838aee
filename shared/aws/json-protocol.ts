import { Agent as HttpAgent, type ClientRequest, type IncomingMessage, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { attemptTimeouts, callBudgetMs, nextRetryDelayMs } from '#shared/aws/retries';
import { escapeUri, RequestSigner } from '#shared/aws/signature-v4';
import { env } from '#shared/config';

/**
 * AWS's JSON protocol (DynamoDB and its streams, SQS, EventBridge, Secrets Manager: a POST of
 * the input as JSON naming its operation in `X-Amz-Target`) and REST-JSON (the Scheduler), signed
 * with Signature V4, over kept-alive connections, with the retries and time-outs the service
 * sets (shared/aws/retries.ts). The SDK's clients do the same through a generic middleware
 * stack and schema-driven serialisation: about 180 KB of each bundle and twice the CPU a call
 * (docs/performance.md).
 */

type Json = Record<string, unknown>;

/** A service's refusal of a call, as the SDK surfaces it: `name` is the error's type (`ConditionalCheckFailedException`), its body's other fields (`Item`, `CancellationReasons`) are on it. */
export class AwsServiceError extends Error {
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

// The SDK's service-error classification (@smithy/core, retry/service-error-classification), as it applies to these services.
const THROTTLING = new Set([
  'BandwidthLimitExceeded',
  'EC2ThrottledException',
  'LimitExceededException',
  'PriorRequestNotComplete',
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
  'RequestThrottled',
  'RequestThrottledException',
  'SlowDown',
  'ThrottledException',
  'Throttling',
  'ThrottlingException',
  'TooManyRequestsException',
  'TransactionInProgressException',
]);
const TRANSIENT_NAMES = new Set(['TimeoutError', 'RequestTimeout', 'RequestTimeoutException']);
const TRANSIENT_STATUSES = new Set([500, 502, 503, 504]);
const TRANSIENT_NETWORK_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/** How the SDK's retries classify an error: throttling, transient (time-outs, 5xx, dropped connections, also as an error's cause), or neither. */
export function errorType(error: unknown, depth = 0): 'THROTTLING' | 'TRANSIENT' | 'OTHER' {
  if (error instanceof AwsServiceError) {
    if (error.$metadata.httpStatusCode === 429 || THROTTLING.has(error.name)) return 'THROTTLING';
    if (TRANSIENT_NAMES.has(error.name) || TRANSIENT_STATUSES.has(error.$metadata.httpStatusCode)) return 'TRANSIENT';
    return 'OTHER';
  }
  const { name, code, cause } = (error ?? {}) as { name?: string; code?: string; cause?: unknown };
  if (TRANSIENT_NAMES.has(name ?? '') || TRANSIENT_NETWORK_CODES.has(code ?? '')) return 'TRANSIENT';
  return cause !== undefined && depth < 10 ? errorType(cause, depth + 1) : 'OTHER';
}

/** A query string escaped as Signature V4 signs it (RFC 3986: also `!'()*`), so what is sent is what was signed. */
const queryString = (query: Record<string, string>) =>
  Object.entries(query)
    .map(([key, value]) => `${escapeUri(key)}=${escapeUri(value)}`)
    .join('&');

export interface AwsJsonService {
  /** The service's name in signatures: `dynamodb`, `sqs`, `events`, `secretsmanager`. */
  signingName: string;
  /** Its endpoint's first labels in AWS, when not its signing name: `streams.dynamodb`. */
  endpointPrefix?: string;
  /** `X-Amz-Target`'s prefix, before `.Operation`: `DynamoDB_20120810`, `AmazonSQS`. */
  targetPrefix: string;
  /** The protocol's version in the content type: `1.0` or `1.1`. */
  jsonVersion: '1.0' | '1.1';
  /** How the service's call counts in the local stack's traces: `DynamoDB`, `SQS`. */
  serviceId: string;
  /** Serialises an input's values the service wants otherwise than JSON does (DynamoDB's binary values). */
  replacer?: (this: Record<string, unknown>, key: string, value: unknown) => unknown;
  /** Reads them back; only an answer `mayNeedReviver` says may hold one pays for it. */
  reviver?: (key: string, value: unknown) => unknown;
  mayNeedReviver?: (text: string) => boolean;
}

interface RequestSpec {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  payload: string;
}

interface Endpoint {
  url: URL;
  agent: HttpAgent;
  send: typeof httpRequest;
}

/** The answer's JSON; a refusal that is not JSON (a proxy's page) counts by its status alone. */
function readBody(text: string, ok: boolean, reviver: AwsJsonService['reviver'] | undefined): Json {
  if (!text) return {};
  try {
    return JSON.parse(text, reviver) as Json;
  } catch (error) {
    if (ok) throw error;
    return {};
  }
}

/**
 * A client per process, made on first use (after the local stack has set its endpoints) and kept
 * across invocations; a new one only when `endpoint()` changes (a benchmark that moves on to a
 * fresh local stack, a test's scripted service).
 */
export function perEndpoint<Client>(endpoint: () => string | undefined, make: (endpoint: string | undefined) => Client): () => Client {
  let instance: { endpoint: string | undefined; client: Client } | undefined;
  return () => {
    const current = endpoint();
    if (!instance || instance.endpoint !== current) instance = { endpoint: current, client: make(current) };
    return instance.client;
  };
}

/** A client of one service at one endpoint: AWS's for the region, or the local stack's (any credentials). */
export class AwsJsonClient {
  private readonly endpoint: Endpoint;
  private readonly signer: RequestSigner;
  private readonly timeouts: { connectionTimeout: number; requestTimeout: number };
  private readonly budgetMs: number;

  constructor(
    readonly service: AwsJsonService,
    localEndpoint: string | undefined,
  ) {
    const region = env.awsRegion;
    // The regional endpoint, as AWS names it (China's regions under their own domain).
    const domain = region.startsWith('cn-') ? 'amazonaws.com.cn' : 'amazonaws.com';
    const url = new URL(localEndpoint ?? `https://${service.endpointPrefix ?? service.signingName}.${region}.${domain}`);
    const secure = url.protocol === 'https:';
    // As the SDK's Node.js handler: connections kept alive, up to 50 at once.
    const agent = secure ? new HttpsAgent({ keepAlive: true, maxSockets: 50 }) : new HttpAgent({ keepAlive: true, maxSockets: 50 });
    this.endpoint = { url, agent, send: secure ? httpsRequest : httpRequest };
    const credentials = localEndpoint ? { accessKeyId: 'local', secretAccessKey: 'local' } : env.awsCredentials;
    this.signer = new RequestSigner(service.signingName, region, credentials);
    this.timeouts = attemptTimeouts(localEndpoint);
    this.budgetMs = callBudgetMs(localEndpoint);
  }

  /** Closes its kept-alive connections (the local stack's pollers, when it stops). */
  close(): void {
    this.endpoint.agent.destroy();
  }

  /** One call of `operation` in the JSON protocol, retried on throttling and transient errors until it succeeds, gives up or runs past its budget. */
  call<Output extends object = Json>(operation: string, input: Json): Promise<Output> {
    const { targetPrefix, jsonVersion, replacer } = this.service;
    return this.request<Output>({
      method: 'POST',
      path: '/',
      query: {},
      headers: { 'content-type': `application/x-amz-json-${jsonVersion}`, 'x-amz-target': `${targetPrefix}.${operation}` },
      payload: JSON.stringify(input, replacer),
    });
  }

  /** One call of a REST-JSON service (the Scheduler): `_operation` names it in the local stack's traces only; the path's segments are escaped by the caller. */
  rest<Output extends object = Json>(
    _operation: string,
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    query: Record<string, string | undefined>,
    input?: Json,
  ): Promise<Output> {
    const given = Object.fromEntries(Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined));
    return this.request<Output>({
      method,
      path,
      query: given,
      headers: input ? { 'content-type': 'application/json' } : {},
      payload: input ? JSON.stringify(input) : '',
    });
  }

  /** Sends one request, retried as the SDK's calls are (shared/aws/retries.ts). */
  private async request<Output>(spec: RequestSpec): Promise<Output> {
    const startedAt = Date.now();
    for (let retries = 0; ; retries++) {
      try {
        return (await this.attempt(spec)) as Output;
      } catch (error) {
        const delay = nextRetryDelayMs(errorType(error), retries, startedAt, this.budgetMs);
        if (delay === undefined) throw error;
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }

  private async attempt({ method, path, query, headers, payload }: RequestSpec): Promise<Json> {
    const { url, agent, send } = this.endpoint;
    const { reviver, mayNeedReviver } = this.service;
    const signedHeaders = this.signer.sign({ method, path, query, headers: { host: url.host, ...headers }, payload });
    const search = queryString(query);
    const response = await new Promise<{ status: number; headers: IncomingMessage['headers']; text: string }>((resolve, reject) => {
      const request: ClientRequest = send(
        {
          agent,
          protocol: url.protocol,
          hostname: url.hostname,
          port: url.port,
          method,
          path: search ? `${path}?${search}` : path,
          headers: { ...signedHeaders, 'content-length': Buffer.byteLength(payload) },
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
    const parsed = readBody(response.text, ok, reviver && (!mayNeedReviver || mayNeedReviver(response.text)) ? reviver : undefined);
    if (ok) return parsed;
    // `com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException`: the name is after the `#`, before any `:`.
    // As the SDK reads it: the body's type (or code), else the header's; `…#Name`, `Name:…` or `Name,…`.
    const type = String(parsed.__type ?? parsed.code ?? response.headers['x-amzn-errortype'] ?? 'UnknownError');
    const name = type.split('#').pop()!.split(/[:,]/)[0].trim();
    const { __type, code, message, Message, ...fields } = parsed;
    const requestId = response.headers['x-amzn-requestid'] as string | undefined;
    throw new AwsServiceError(name, String(message ?? Message ?? name), response.status, requestId, fields);
  }
}
