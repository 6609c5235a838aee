import { GraphError } from '#simulator/graph-error';
import { whatsappErrors } from '#simulator/whatsapp-errors';

/**
 * The Calling API's errors as the platform answers them (docs/platform-calling.md §5, Meta's
 * "Troubleshoot WhatsApp Calling Errors", Jun 24 2026: code, title and HTTP status). The envelope is
 * the page's "standard error response" `{ message, type, code, fbtrace_id }`, with the message as a
 * captured refusal words it: `(#138006) No approved call permission from the recipient` (MWRS
 * `calling/tests.rs`). Only 100 and 138012 carry `error_data`, as the page says.
 */
const callingError = (status: number, code: number, title: string): GraphError => new GraphError(status, code, 'OAuthException', `(#${code}) ${title}`);

export const callingErrors = {
  /** 100: a missing or malformed field, an SDP that does not validate; the details say which. */
  invalidParameter: (details: string) => whatsappErrors.invalidParameter(details),
  /**
   * 100 for an action on a call that is over (terminated, rejected, hung up) or that the number
   * does not have: the troubleshooting page lists no dedicated code, and sends every invalid
   * parameter as 100 with the details in `error_data` [INFERRED].
   */
  callNotActive: (callId: string, why: string) => whatsappErrors.invalidParameter(`Call ${callId} ${why}.`),
  /** 131055: a SIP-enabled number cannot use the calling endpoints. */
  sipEnabled: () => callingError(400, 131055, 'Method not allowed. Graph API calls are not allowed for SIP enabled numbers'),
  /** 138000 (HTTP 401): calling is not enabled on the business number. */
  callingNotEnabled: () => callingError(401, 138000, 'Calling not enabled'),
  /** 138003: a call between this business number and this user is already going on. */
  duplicateCall: () => callingError(400, 138003, 'Duplicate call'),
  /** 138006 (HTTP 401): the user has not granted a call permission (wording of the MWRS captured refusal). */
  noPermission: () => callingError(401, 138006, 'No approved call permission from the recipient'),
  /** 138009: more than 1 permission request in 24 hours or 2 in 7 days to this user. */
  permissionRequestLimit: () => callingError(400, 138009, 'Call Permission Request Limit Hit'),
  /** 138012: the connected business-initiated calls of 24 hours are used up; `error_data` names when the next is allowed. */
  businessCallsLimit: (nextAllowedAt: number) =>
    new GraphError(400, 138012, 'OAuthException', '(#138012) Business Initiated Calls Limit Hit', undefined, {
      messaging_product: 'whatsapp',
      details: `Limit reached for maximum business initiated calls allowed in 24 hours. The next call is allowed at ${nextAllowedAt}.`,
    }),
  /** 138015: calling cannot be enabled, the messaging limit being under 2000. */
  cannotBeEnabled: () => callingError(400, 138015, 'Calling cannot be enabled'),
  /** 138017: the user already granted a permanent permission. */
  permanentPermissionExists: () => callingError(400, 138017, "Call permission request can't be sent because a permanent permission already exists."),
  /** 613 (HTTP 429): more than 100 call permission look-ups in one second. */
  permissionLookupLimit: () => callingError(429, 613, 'Fetch Call Permission For Consumer Phone Number API Limit Hit'),
};
