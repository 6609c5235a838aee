import middy from '@middy/core';
import httpEventNormalizer from '@middy/http-event-normalizer';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { ApiContext } from '#shared/http/context';
import { envelope } from '#shared/http/middleware/envelope';
import { metricsPublishing } from '#shared/http/middleware/metrics';
import { requestContext } from '#shared/http/middleware/request-context';
import type { HttpResult } from '#shared/http/responses';
import { logger } from '#shared/logger';

/**
 * httpOperation's stack without authentication, the rate limit or usage, for the few public
 * routes. A module of its own: importing the authenticated stack would put its table client in
 * these functions' bundles (about 170 KB), though they never call the table.
 */
export function publicHttpOperation(handle: (event: APIGatewayProxyEventV2) => Promise<HttpResult>) {
  return middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, ApiContext>()
    .use(metricsPublishing())
    .use(injectLambdaContext(logger))
    .use(httpEventNormalizer())
    .use(httpHeaderNormalizer())
    .use(requestContext())
    .use(envelope())
    .handler(async (event) => (await handle(event)) as unknown as APIGatewayProxyStructuredResultV2);
}
