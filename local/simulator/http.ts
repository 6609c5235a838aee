import type { ServerResponse } from 'node:http';
import { GraphError } from '#local/simulator/graph-error';

/** What a route handler sees of a request. */
export interface RouteContext {
  method: string;
  /** Absolute URL of the request as the client addressed this simulator (used to build `paging.next`). */
  url: URL;
  /** Named groups captured by the route's path pattern. */
  params: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
}

/** A handler's answer: status and JSON body. */
export interface JsonResponse {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export const ok = (body: unknown): JsonResponse => ({ status: 200, body });

export function sendJson(res: ServerResponse, { status, body, headers }: JsonResponse): void {
  const payload = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=UTF-8',
    'Content-Length': Buffer.byteLength(payload),
    ...headers,
  });
  res.end(payload);
}

export const sendGraphError = (res: ServerResponse, error: GraphError): void =>
  sendJson(res, { status: error.status, body: error.body(), headers: error.headers() });
