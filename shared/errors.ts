/**
 * Errors of the service's rules, whatever called them: an API request, a queue worker, the admin
 * command. A domain error has a code and details, never a transport status; the HTTP layer maps
 * codes to statuses in one table (shared/http/errors.ts), and workers turn the same errors into
 * final states (a failed message carries the code).
 */
export interface ErrorDetail {
  field: string;
  message: string;
}

/** Every code a rule of the service can refuse with (contract §2). */
export const DOMAIN_ERROR_CODES = [
  'validation_error',
  'not_found',
  'invalid_state',
  'cannot_revoke_last_key',
  'plan_upgrade_required',
  'template_not_found',
  'template_not_approved',
  'template_variables_mismatch',
  'session_window_closed',
  'recipient_opted_out',
  'invalid_audience',
  'empty_audience',
  'nothing_to_retry',
  'platform_error',
  'number_in_use',
  'account_in_use',
  'number_not_in_account',
  'unknown_number',
  'template_exists',
  'workspace_suspended',
  'market_not_allowed',
  'phone_number_required',
  'unsupported_for_groups',
  'call_permission_required',
] as const;
export type DomainErrorCode = (typeof DOMAIN_ERROR_CODES)[number];

export class DomainError<Code extends string = DomainErrorCode> extends Error {
  constructor(
    readonly code: Code,
    message: string,
    readonly details?: ErrorDetail[],
    /**
     * Well-formed, but its content is refused: by a rule on what it says (a template's rules,
     * contract §18) or by the platform on the client's behalf. Same code, answered as
     * unprocessable rather than with the code's usual status (contract §2).
     */
    readonly unprocessable = false,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

/** `instanceof` with the code typed: a bare `instanceof DomainError` leaves the code `any`. */
export const isDomainError = (error: unknown): error is DomainError<string> => error instanceof DomainError;

export const errors = {
  validation: (details: ErrorDetail[]) => new DomainError('validation_error', 'The request is invalid', details),
  notFound: (what: string) => new DomainError('not_found', `${what} not found`),
  invalidState: (message: string) => new DomainError('invalid_state', message),
  /** A refusal under a rule of its own code (template_not_found, session_window_closed, …). */
  refused: (code: DomainErrorCode, message: string, details?: ErrorDetail[]) => new DomainError(code, message, details),
  /** Content that breaks a rule checked before the platform is called (a template's, contract §18): one detail per problem. */
  unprocessable: (details: ErrorDetail[]) => new DomainError('validation_error', "The request breaks the platform's rules", details, true),
  /** The platform answered with a refusal of an operation made on the client's behalf; `details` carry its code and messages. */
  platformRefused: (message: string, details: ErrorDetail[]) => new DomainError('platform_error', message, details, true),
};
