import { DomainError, type DomainErrorCode } from '#shared/errors';

/** Codes only the HTTP layer raises: the request itself, authentication, idempotency, routing. */
type HttpErrorCode =
  | 'invalid_json'
  | 'unauthorized'
  | 'forbidden'
  | 'route_not_found'
  | 'payload_too_large'
  | 'rate_limited'
  | 'unsupported_media_type'
  | 'idempotency_key_in_use'
  | 'idempotency_key_reused';

export type ErrorCode = DomainErrorCode | HttpErrorCode;

/** Contract §2, in one place: the status every error code is answered with. */
export const HTTP_STATUS: Record<ErrorCode, number> = {
  invalid_json: 400,
  validation_error: 400,
  unauthorized: 401,
  rate_limited: 429,
  plan_upgrade_required: 403,
  workspace_suspended: 403,
  forbidden: 403,
  not_found: 404,
  route_not_found: 404,
  invalid_state: 409,
  idempotency_key_in_use: 409,
  cannot_revoke_last_key: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  idempotency_key_reused: 422,
  template_not_found: 422,
  template_not_approved: 422,
  template_variables_mismatch: 422,
  session_window_closed: 422,
  recipient_opted_out: 422,
  invalid_audience: 422,
  empty_audience: 422,
  nothing_to_retry: 422,
  number_in_use: 409,
  account_in_use: 409,
  number_not_in_account: 422,
  unknown_number: 422,
  unsupported_for_groups: 422,
  call_permission_required: 422,
  platform_error: 502,
  template_exists: 409,
  market_not_allowed: 422,
  phone_number_required: 422,
};

/** What a well-formed request whose content is refused (a template's rules, the platform's refusal) is answered with. */
export const UNPROCESSABLE_STATUS = 422;

/** An error of the HTTP layer, which may carry response headers (`WWW-Authenticate`, `Idempotent-Replayed`). */
export class HttpError extends DomainError<ErrorCode> {
  constructor(
    code: ErrorCode,
    message: string,
    details?: DomainError['details'],
    readonly headers: Record<string, string> = {},
  ) {
    super(code, message, details);
    this.name = 'HttpError';
  }
}

export const statusOf = (error: DomainError<string>): number => (error.unprocessable ? UNPROCESSABLE_STATUS : (HTTP_STATUS[error.code as ErrorCode] ?? 500));

export const httpErrors = {
  invalidJson: () => new HttpError('invalid_json', 'The request body is not valid JSON'),
  unauthorized: (message = 'A valid API key is required') => new HttpError('unauthorized', message, undefined, { 'WWW-Authenticate': 'Bearer' }),
  forbidden: (message: string) => new HttpError('forbidden', message),
  routeNotFound: (method: string, path: string) => new HttpError('route_not_found', `No route for ${method} ${path}`),
  /** Over the workspace's request rate (contract §14), with when to come back and the limit. */
  rateLimited: (retryAfterSeconds: number, limit: number) =>
    new HttpError('rate_limited', `Over this workspace's limit of ${limit} requests per second; retry after ${retryAfterSeconds} s`, undefined, {
      'Retry-After': String(retryAfterSeconds),
      'RateLimit-Limit': String(limit),
      'RateLimit-Remaining': '0',
    }),
  payloadTooLarge: (limitBytes: number) => new HttpError('payload_too_large', `The request body exceeds ${limitBytes} bytes`),
  unsupportedMediaType: () => new HttpError('unsupported_media_type', 'Request bodies must be sent with Content-Type: application/json'),
  idempotencyKeyInUse: () => new HttpError('idempotency_key_in_use', 'A request with this Idempotency-Key is still being processed'),
  idempotencyKeyReused: () => new HttpError('idempotency_key_reused', 'This Idempotency-Key was used with a different request'),
};
