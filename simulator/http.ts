import type { IncomingMessage, ServerResponse } from 'node:http';
import { GraphError } from '#simulator/graph-error';
import { whatsappErrors } from '#simulator/whatsapp-errors';

/** What a route handler sees of a request. */
export interface RouteContext {
  method: string;
  /** Absolute URL of the request as the client addressed this simulator (used to build `paging.next`). */
  url: URL;
  /** Named groups captured by the route's path pattern. */
  params: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  /**
   * The request body parsed as JSON (read once, then cached); `undefined` for an empty body.
   * Malformed JSON or an oversized body throws Graph error 100 (HTTP 400).
   */
  readJson(): Promise<unknown>;
  /** The raw request body (a resumable upload's bytes), at most `maxBytes`. */
  readBytes(maxBytes: number): Promise<Buffer>;
}

/** A handler's answer: status and JSON body, or raw `bytes` (a media download). */
export interface JsonResponse {
  status: number;
  body: unknown;
  bytes?: Buffer;
  headers?: Record<string, string>;
}

export const ok = (body: unknown): JsonResponse => ({ status: 200, body });

/** Bodies above this size are refused; real send requests are a few kB at most. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** Reads a raw request body; over `maxBytes` is Graph's error 100. */
export async function readRawBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw whatsappErrors.invalidParameter(`Request body is larger than ${maxBytes} bytes.`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** Reads and parses a JSON request body (any content type; empty -> `undefined`). */
export async function readJsonBody(req: IncomingMessage, maxBytes = MAX_BODY_BYTES): Promise<unknown> {
  const text = (await readRawBody(req, maxBytes)).toString('utf8');
  if (!text.trim()) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw whatsappErrors.invalidParameter('Request body is not valid JSON.');
  }
}

export function sendJson(res: ServerResponse, { status, body, bytes, headers }: JsonResponse): void {
  if (bytes) {
    res.writeHead(status, { 'Content-Type': 'application/octet-stream', 'Content-Length': bytes.length, ...headers });
    res.end(bytes);
    return;
  }
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
