/**
 * The error codes each operation can answer with (contract §2): its own rules' (its description)
 * and those of the stack it runs in (shared/http/operation.ts), grouped by HTTP status.
 */
import { HTTP_STATUS, UNPROCESSABLE_STATUS, type ErrorCode } from '#shared/http/errors';
import type { HttpDescription } from '#shared/schemas/operations/description';

/** What the envelope answers for an unexpected failure; it is no ErrorCode of the service's rules. */
export type EnvelopeErrorCode = ErrorCode | 'internal_error';

/** When each code is answered, as the document tells clients. */
export const ERROR_MEANINGS: Record<EnvelopeErrorCode, string> = {
  invalid_json: 'The body is not parseable JSON',
  validation_error:
    "The body, query or path does not match the schema (400), or a template or flow message breaks the platform's rules checked before it is called (422); one `details` entry per problem",
  unauthorized:
    'Missing, malformed, unknown or revoked API key (or, from the platform, a missing or wrong signature; on the operator API, anything but the operator key or a granted SigV4 identity)',
  forbidden: 'The verify token does not match',
  plan_upgrade_required: "The feature is not on the workspace's plan",
  not_found: 'No such record in this workspace',
  route_not_found: 'No such path and method',
  invalid_state:
    'The record is not in a state that allows this, or changed concurrently (409); a message that cannot be marked read: ours, or over 30 days old (422)',
  idempotency_key_in_use: 'A request with this Idempotency-Key is still being processed',
  cannot_revoke_last_key: "The workspace's only active key cannot be revoked",
  payload_too_large: 'The body is over 1 MiB',
  unsupported_media_type: 'A body sent without Content-Type: application/json',
  idempotency_key_reused: 'This Idempotency-Key was used with another request body',
  template_not_found: 'No template of that name or id (and language) in the workspace',
  template_not_approved: 'The template is not APPROVED',
  template_variables_mismatch: "The variables, header or buttons do not fit the template's (one `details` entry per problem)",
  session_window_closed: 'No customer message from that number in the last 24 hours',
  recipient_opted_out: 'A MARKETING template to a number that opted out',
  invalid_audience: 'The audience names groups or contacts that do not exist (listed in `details`)',
  empty_audience: 'The audience resolves to no recipient',
  nothing_to_retry: "No recipient's latest message failed with a transient cause",
  rate_limited: "Over the workspace's request rate",
  platform_error:
    "The messaging platform refused (422, with the platform's `code`, `message` and `error_user_msg` in `details`) or did not answer (502) an operation made on the client's behalf",
  template_exists: 'A template of that name and language exists in the business account',
  number_in_use: 'The business number is connected to another workspace',
  account_in_use: 'The business account (WABA) is held by another workspace: every number of it is refused',
  number_not_in_account: 'The platform does not list the number in the named business account, as seen with the token this workspace may use for it',
  unknown_number: '`from` names no connected number of the workspace',
  workspace_suspended: "The operator suspended the key's workspace: its keys are refused until it is unsuspended",
  market_not_allowed: "A MARKETING template to a market the platform closes to marketing (the deployment's closed markets)",
  phone_number_required: 'An AUTHENTICATION template to a customer known only by a user id (no phone number)',
  unsupported_for_groups: 'A message kind WhatsApp groups do not take (only text, media and non-authentication templates)',
  call_permission_required: 'A call to a customer who has not granted (or no longer grants) the business permission to call them',
  internal_error: 'Something unexpected failed on our side',
};

/** Every request through `httpOperation` may be refused by its key (or its workspace's suspension), its rate and its body (any body sent is read as JSON). */
const API_KEY_STACK: EnvelopeErrorCode[] = [
  'unauthorized',
  'workspace_suspended',
  'rate_limited',
  'invalid_json',
  'payload_too_large',
  'unsupported_media_type',
];
/** Every request through `operatorOperation`: no workspace, so no suspension nor rate. */
const OPERATOR_STACK: EnvelopeErrorCode[] = ['unauthorized', 'invalid_json', 'payload_too_large', 'unsupported_media_type'];

export function errorCodesOf(description: HttpDescription): Set<EnvelopeErrorCode> {
  const codes = new Set<EnvelopeErrorCode>(description.errors ?? []);
  if (description.auth === 'operator') {
    OPERATOR_STACK.forEach((code) => codes.add(code));
    const { body, query, params } = description.request;
    if (body || query || params) codes.add('validation_error');
  }
  if (description.auth === 'apiKey') {
    const { body, query, params, idempotentAs } = description.request;
    API_KEY_STACK.forEach((code) => codes.add(code));
    // An Idempotency-Key of the wrong length is a validation error too.
    if (body || query || params || idempotentAs) codes.add('validation_error');
    if (idempotentAs) (['idempotency_key_in_use', 'idempotency_key_reused'] as const).forEach((code) => codes.add(code));
  }
  codes.add('internal_error');
  return codes;
}

export const statusOfCode = (code: EnvelopeErrorCode): number => (code === 'internal_error' ? 500 : HTTP_STATUS[code]);

/**
 * The codes by status: statuses in ascending order, codes in alphabetical order. A code the
 * operation also answers as unprocessable (`unprocessable`) is listed under 422 too.
 */
export function codesByStatus(codes: Iterable<EnvelopeErrorCode>, unprocessable: readonly EnvelopeErrorCode[] = []): Map<number, EnvelopeErrorCode[]> {
  const byStatus = new Map<number, EnvelopeErrorCode[]>();
  const add = (status: number, code: EnvelopeErrorCode) => byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  for (const code of [...codes].sort()) {
    add(statusOfCode(code), code);
    if (unprocessable.includes(code) && statusOfCode(code) !== UNPROCESSABLE_STATUS) add(UNPROCESSABLE_STATUS, code);
  }
  for (const [status, listed] of byStatus) byStatus.set(status, listed.sort());
  return new Map([...byStatus].sort(([a], [b]) => a - b));
}
