import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { localWiring, type OperationWith } from '#local/triggers';
import { loadHandler } from '#local/handlers';
import { lambdaContext } from '#local/lambda-context';
import { listenOn } from '#local/ports';

/** Lambda's request payload limit (API Gateway's own is higher): larger bodies never reach a function. */
const GATEWAY_MAX_BODY_BYTES = 6 * 1024 * 1024;

interface Route {
  operation: OperationWith<'http'>;
  method: string;
  pattern: RegExp;
  paramNames: string[];
  /** Static routes win over parameterised ones, as in API Gateway. */
  staticSegments: number;
}

function compileRoutes(): { routes: Route[]; fallback: OperationWith<'httpDefault'> } {
  const routes: Route[] = [];
  const { fallback } = localWiring;
  for (const operation of localWiring.routes) {
    const { trigger } = operation;
    const paramNames: string[] = [];
    const segments = trigger.path.split('/').map((segment) => {
      const param = /^\{(\w+)\}$/.exec(segment);
      if (!param) return segment.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
      paramNames.push(param[1]);
      return '([^/]+)';
    });
    routes.push({
      operation,
      method: trigger.method,
      pattern: new RegExp(`^${segments.join('/')}$`),
      paramNames,
      staticSegments: trigger.path.split('/').length - paramNames.length,
    });
  }
  if (!fallback) throw new Error('operations has no httpDefault operation');
  routes.sort((a, b) => b.staticSegments - a.staticSegments);
  return { routes, fallback };
}

/** Malformed percent-encoding is passed through as is, for the handler's validation to refuse. */
function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function match(routes: Route[], method: string, path: string) {
  for (const route of routes) {
    if (route.method !== method) continue;
    const found = route.pattern.exec(path);
    if (found) {
      const params = Object.fromEntries(route.paramNames.map((name, i) => [name, safeDecode(found[i + 1])]));
      return { route, params };
    }
  }
  return undefined;
}

function readBody(request: IncomingMessage): Promise<Buffer | 'too_large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= GATEWAY_MAX_BODY_BYTES) chunks.push(chunk);
    });
    request.on('end', () => resolve(size > GATEWAY_MAX_BODY_BYTES ? 'too_large' : Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

/** Builds the event API Gateway (HTTP API, payload 2.0) would send for this request. */
function toEvent(request: IncomingMessage, url: URL, body: Buffer, routeKey: string, params: Record<string, string>): APIGatewayProxyEventV2 {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  const query: Record<string, string> = {};
  for (const [name, value] of url.searchParams) query[name] = name in query ? `${query[name]},${value}` : value;
  const now = Date.now();
  return {
    version: '2.0',
    routeKey,
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    headers,
    queryStringParameters: Object.keys(query).length ? query : undefined,
    pathParameters: Object.keys(params).length ? params : undefined,
    body: body.length ? body.toString('utf8') : undefined,
    isBase64Encoded: false,
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: 'localhost',
      http: {
        method: request.method ?? 'GET',
        path: url.pathname,
        protocol: `HTTP/${request.httpVersion}`,
        sourceIp: request.socket.remoteAddress ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey,
      stage: '$default',
      time: new Date(now).toUTCString(),
      timeEpoch: now,
    },
  };
}

function send(response: ServerResponse, result: APIGatewayProxyStructuredResultV2) {
  // As API Gateway: a base64 body is answered as its bytes, and every body with its length (not chunked).
  const body = Buffer.from(result.body ?? '', result.isBase64Encoded ? 'base64' : 'utf8');
  response.writeHead(result.statusCode ?? 200, { ...(result.headers as Record<string, string>), 'content-length': body.length });
  response.end(body);
}

/**
 * The local API Gateway: routes requests to the operations' handlers, in-process, with real
 * `APIGatewayProxyEventV2` events. `isReady` gates `/health` until the whole stack is up.
 */
export async function startApiServer(port: number, isReady: () => boolean): Promise<Server> {
  const { routes, fallback } = compileRoutes();
  const server = createServer((request, response) => void route(request, response));
  async function route(request: IncomingMessage, response: ServerResponse) {
    try {
      const url = new URL(request.url ?? '/', 'http://localhost');
      const method = request.method ?? 'GET';
      if (url.pathname === '/health' && !isReady()) return send(response, { statusCode: 503, body: '{"status":"starting"}' });
      const body = await readBody(request);
      if (body === 'too_large') return send(response, { statusCode: 413, body: '{"message":"Request Entity Too Large"}' });
      const found = match(routes, method, url.pathname);
      const operation = found?.route.operation ?? fallback;
      const routeKey = found ? `${method} ${found.route.operation.trigger.path}` : '$default';
      const handler = await loadHandler(operation);
      const event = toEvent(request, url, body, routeKey, found?.params ?? {});
      send(response, (await handler(event, lambdaContext(operation.name, operation.timeoutSeconds))) as APIGatewayProxyStructuredResultV2);
    } catch (error) {
      // What API Gateway answers when a function fails outright.
      console.error(error);
      send(response, { statusCode: 500, body: '{"message":"Internal Server Error"}' });
    }
  }
  // Longer than fetch's own idle time (4 s): the client closes an idle connection first, so a request is never written to a socket the server is closing (a reset the sender must treat as ambiguous).
  server.keepAliveTimeout = 60_000;
  await listenOn(server, port);
  return server;
}
