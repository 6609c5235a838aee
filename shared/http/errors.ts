/** A failure the client can act on: rendered as the contract's error envelope by the envelope middleware. */
export interface ErrorDetail {
  field: string;
  message: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: ErrorDetail[],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const errors = {
  invalidJson: () => new ApiError(400, 'invalid_json', 'The request body is not valid JSON'),
  validation: (details: ErrorDetail[]) => new ApiError(400, 'validation_error', 'The request is invalid', details),
  unauthorized: () =>
    new ApiError(401, 'unauthorized', 'A valid API key is required', undefined, { 'WWW-Authenticate': 'Bearer' }),
  planUpgradeRequired: (message: string) => new ApiError(403, 'plan_upgrade_required', message),
  notFound: (what: string) => new ApiError(404, 'not_found', `${what} not found`),
  routeNotFound: (method: string, path: string) => new ApiError(404, 'route_not_found', `No route for ${method} ${path}`),
  invalidState: (message: string) => new ApiError(409, 'invalid_state', message),
  conflict: (code: string, message: string) => new ApiError(409, code, message),
  payloadTooLarge: (limitBytes: number) =>
    new ApiError(413, 'payload_too_large', `The request body exceeds ${limitBytes} bytes`),
  unsupportedMediaType: () =>
    new ApiError(415, 'unsupported_media_type', 'Request bodies must be sent with Content-Type: application/json'),
  unprocessable: (code: string, message: string, details?: ErrorDetail[]) => new ApiError(422, code, message, details),
  badGateway: (message: string) => new ApiError(502, 'platform_error', message),
};
