import middy from '@middy/core';
import httpEventNormalizer from '@middy/http-event-normalizer';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { ApiContext } from '#shared/http/context';
import { envelope } from '#shared/http/middleware/envelope';
import { jsonBody } from '#shared/http/middleware/json-body';
import { metricsPublishing } from '#shared/http/middleware/metrics';
import { operatorAuth } from '#shared/http/middleware/operator-auth';
import { requestContext } from '#shared/http/middleware/request-context';
import { validateRequest, type RequestSchemas, type ValidInput } from '#shared/http/middleware/validate';
import type { HttpResult } from '#shared/http/responses';
import { logger } from '#shared/logger';

/**
 * The stack of the operator's API (/admin/v1, contract §19): httpOperation's without a workspace,
 * so without its rate limit and usage. The operator is authenticated before the body is read.
 */
export function operatorOperation<S extends RequestSchemas>(schemas: S, handle: (input: ValidInput<S>) => Promise<HttpResult>) {
  return middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, ApiContext>()
    .use(metricsPublishing())
    .use(injectLambdaContext(logger))
    .use(httpEventNormalizer())
    .use(httpHeaderNormalizer())
    .use(requestContext())
    .use(envelope())
    .use(operatorAuth())
    .use(jsonBody())
    .use(validateRequest(schemas))
    .handler(async (_event, context) => (await handle(context.input as ValidInput<S>)) as unknown as APIGatewayProxyStructuredResultV2);
}
