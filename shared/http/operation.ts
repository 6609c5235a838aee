import middy from '@middy/core';
import httpEventNormalizer from '@middy/http-event-normalizer';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { Workspace } from '#shared/records/workspace';
import type { ApiContext } from '#shared/http/context';
import { authenticate } from '#shared/http/middleware/authenticate';
import { envelope } from '#shared/http/middleware/envelope';
import { jsonBody } from '#shared/http/middleware/json-body';
import { requestContext } from '#shared/http/middleware/request-context';
import { usageRecording } from '#shared/http/middleware/usage-recording';
import { rateLimit } from '#shared/http/middleware/rate-limit';
import { validateRequest, type RequestSchemas, type ValidInput } from '#shared/http/middleware/validate';
import type { HttpResult } from '#shared/http/responses';
import { logger } from '#shared/logger';
import { newId } from '#shared/ids';
import { idempotency } from '#shared/http/middleware/idempotency';
import { metricsPublishing } from '#shared/http/middleware/metrics';

export interface HttpInput<S extends RequestSchemas> extends ValidInput<S> {
  workspace: Workspace;
  /** The id for the record this request creates: stable across retries of one Idempotency-Key. */
  resourceId: string;
  headers: Record<string, string | undefined>;
  requestId: string;
  /** The partitions the workspace's message list reads, as the request's admission found them (data/message-list-shards.ts). */
  listShards: number;
}

/**
 * The one middleware stack every authenticated HTTP operation runs through. A handler file
 * declares its schemas and a function from validated input to a result; everything else
 * (request id, headers, JSON, validation, auth, the rate limit, usage, logging, metrics, error envelope) happens here.
 */
export interface OperationOptions extends RequestSchemas {
  /** Accept `Idempotency-Key`, scoped to this endpoint name. */
  idempotentAs?: string;
}

export interface OperationSettings {
  /** Count the request in usage only once it is answered (GET /usage must not see itself). */
  countAfterAnswer?: boolean;
}

export function httpOperation<S extends OperationOptions>(schemas: S, handle: (input: HttpInput<S>) => Promise<HttpResult>, settings: OperationSettings = {}) {
  // A request is counted by its admission, unless it must not see itself (GET /usage).
  const countsOnAdmission = !settings.countAfterAnswer;
  const stack = middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, ApiContext>()
    .use(metricsPublishing())
    .use(injectLambdaContext(logger))
    .use(httpEventNormalizer())
    .use(httpHeaderNormalizer())
    .use(requestContext())
    .use(usageRecording())
    .use(envelope())
    .use(authenticate({ countsOnAdmission }))
    .use(rateLimit({ countsOnAdmission }))
    .use(jsonBody())
    .use(validateRequest(schemas));
  if (schemas.idempotentAs) stack.use(idempotency(schemas.idempotentAs));
  return stack.handler(async (event, context) => {
    if (context.replay) return context.replay;
    const result = await handle({
      ...(context.input as ValidInput<S>),
      workspace: context.caller!.workspace,
      headers: event.headers,
      requestId: context.requestId,
      resourceId: context.resourceId ?? newId(),
      listShards: context.listShards!,
    });
    return result;
  });
}
