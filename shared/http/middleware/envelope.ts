import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { isDomainError } from '#shared/errors';
import { HttpError, statusOf } from '#shared/http/errors';
import type { HttpResult } from '#shared/http/responses';
import type { ApiMiddleware, ApiRequest } from '#shared/http/context';
import { logger } from '#shared/logger';

function render(status: number, body: object, requestId: string, headers: Record<string, string> = {}): APIGatewayProxyStructuredResultV2 {
  return {
    statusCode: status,
    headers: { 'Content-Type': 'application/json', 'X-Request-Id': requestId, ...headers },
    body: JSON.stringify({ ...body, request_id: requestId }),
  };
}

function errorResponse(request: ApiRequest): APIGatewayProxyStructuredResultV2 {
  const { error, context } = request;
  if (isDomainError(error)) {
    const { code, message, details } = error;
    const headers = error instanceof HttpError ? error.headers : {};
    return render(statusOf(error), { success: false, error: { code, message, ...(details && { details }) } }, context.requestId, headers);
  }
  logger.error('Unexpected error', { error: error as Error, requestId: context.requestId });
  return render(500, { success: false, error: { code: 'internal_error', message: 'Something went wrong on our side' } }, context.requestId);
}

/** Wraps handler results in the success envelope and every failure in the error envelope. */
export const envelope = (): ApiMiddleware => ({
  after: (request) => {
    const { status, data, pagination, headers, text, gzippedBase64 } = request.response as unknown as HttpResult;
    if (gzippedBase64 !== undefined) {
      // API Gateway decodes a base64 body and answers its bytes (payload format 2.0).
      request.response = {
        statusCode: status,
        headers: { ...headers, 'X-Request-Id': request.context.requestId },
        body: gzippedBase64,
        isBase64Encoded: true,
      };
      return;
    }
    if (text !== undefined) {
      request.response = { statusCode: status, headers: { 'Content-Type': 'text/plain', ...headers, 'X-Request-Id': request.context.requestId }, body: text };
      return;
    }
    request.response = render(status, { success: true, data, ...(pagination && { pagination }) }, request.context.requestId, headers);
  },
  onError: (request) => {
    request.response = errorResponse(request);
  },
});
