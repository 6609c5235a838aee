import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { MiddlewareObj, Request } from '@middy/core';
import type { IdempotencyScope } from '#shared/http/idempotency';
import type { Workspace } from '#shared/records/workspace';
import type { HttpResult } from '#shared/http/responses';
import type { PendingAdmission } from '#shared/http/rate-limit';

export interface Caller {
  keyId: string;
  workspace: Workspace;
}

/** Per-request state the middleware stack shares, carried on the Lambda context. */
export interface ApiContext extends Context {
  requestId: string;
  startedAt: number;
  caller?: Caller;
  /** Validated body, query and path parameters. */
  input: { body: unknown; query: unknown; params: unknown };
  /** Set by the idempotency middleware: the stored first result to answer with instead of running the handler. */
  replay?: HttpResult;
  /** Set by the idempotency middleware when this request holds an Idempotency-Key. */
  idempotency?: IdempotencyScope;
  /** Set by the idempotency middleware: the id of the record this request creates, the same on every attempt. */
  resourceId?: string;
  /** The admission of the key's workspace, started alongside the key's read when the key was seen before. */
  admission?: PendingAdmission;
  /** Set once the admission counted the request in usage (middleware/rate-limit). */
  counted?: boolean;
  /** Set by the admission: the partitions the workspace's message list reads (data/message-list-shards.ts). */
  listShards?: number;
  /** Writes that must finish before the function returns, but need not delay the handler (usage, last_used_at). */
  background: Promise<unknown>[];
}

export type ApiRequest = Request<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, ApiContext>;
export type ApiMiddleware = MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, ApiContext>;
