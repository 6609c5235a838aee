/**
 * What the platform's answers mean, in one place: which Graph API error codes are about pace, the
 * account or a passing fault, which failures to answer may have reached the platform, and which
 * accepted sends it has not sent yet. The send worker, the number pause and a campaign's retry
 * act on these groups; the codes are in docs/platform-requests.md.
 */

/** The number's throughput is reached: the number slows down (contract §14). */
export const THROUGHPUT_REACHED = 130429;
/** Too many messages to one recipient (the pair rate limit): only that recipient's messages wait. */
export const PAIR_LIMIT_REACHED = 131056;
/** The per-user marketing limit: the recipient has had enough marketing messages for now. */
export const MARKETING_LIMIT_REACHED = 131049;

/** The application's and the account's call rate limits. */
const CALL_RATE_LIMITS = [4, 80007];
/** The platform's temporary faults. */
const TEMPORARY_FAULTS = [1, 2, 131000, 131016, 131057];

/** Throughput and rate limits, and temporary faults: retried with back-off (contract §11). Any HTTP 429 and 5xx too. */
const RETRYABLE_CODES = new Set([...CALL_RATE_LIMITS, THROUGHPUT_REACHED, PAIR_LIMIT_REACHED, ...TEMPORARY_FAULTS]);

/** Every answer that asks us to slow down: the two about pace, and the call rate limits (the metric PlatformThrottled). */
const SLOW_DOWN_CODES = new Set([THROUGHPUT_REACHED, PAIR_LIMIT_REACHED, ...CALL_RATE_LIMITS]);

/**
 * About the business account or number, not the message (contract §16): an invalid or expired
 * token, missing permissions, a locked or restricted account, payment, a number not registered,
 * the spam rate limit. They pause sending for the number instead of failing messages.
 */
const ACCOUNT_ERROR_CODES = new Set([190, 0, 10, 200, 131031, 368, 131042, 133010, 131048]);

export const isRetryable = (httpStatus: number, code: number): boolean => httpStatus === 429 || httpStatus >= 500 || RETRYABLE_CODES.has(code);

export const asksToSlowDown = (httpStatus: number, code: number): boolean => httpStatus === 429 || SLOW_DOWN_CODES.has(code);

/** Whether a refusal concerns the account or number rather than the message. */
export const isAccountError = (httpStatus: number, code: number): boolean => httpStatus >= 400 && ACCOUNT_ERROR_CODES.has(code);

/** A failure that may pass when the message is sent again later (a campaign's retry, contract §15): the retryable codes and the per-user marketing limit. */
export const mayPassLater = (code: number): boolean => RETRYABLE_CODES.has(code) || code === MARKETING_LIMIT_REACHED;

/** What a refused send means for its message, in the order the send worker weighs it. */
export type SendRefusal = 'account' | 'throughput' | 'pair_limit' | 'retryable' | 'final';

export function sendRefusal(httpStatus: number, code: number): SendRefusal {
  if (isAccountError(httpStatus, code)) return 'account';
  if (code === THROUGHPUT_REACHED) return 'throughput';
  if (code === PAIR_LIMIT_REACHED) return 'pair_limit';
  return isRetryable(httpStatus, code) ? 'retryable' : 'final';
}

/** Network failures that happen before a request reaches the platform: it cannot have acted on it. */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH']);

/** A call that got no answer may have reached the platform (a time-out, a connection dropped mid-way) unless it failed before it left. */
export const mayHaveReachedPlatform = (networkCode: string | undefined): boolean => !(networkCode && NOT_SENT.has(networkCode));

/** The platform's `message_status` answers for a message it accepted but has not sent (docs/decisions.md). */
const NOT_SENT_YET = new Set(['held_for_quality_assessment', 'paused']);

export const acceptedNotSent = (messageStatus: string | undefined): boolean => messageStatus !== undefined && NOT_SENT_YET.has(messageStatus);
