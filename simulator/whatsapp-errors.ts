import { GraphError } from '#simulator/graph-error';

/**
 * The WhatsApp Cloud API errors the simulator produces, shaped as the platform does:
 * `message` is `(#<code>) <title>`, `error_data.details` says what exactly was wrong.
 */
const whatsappError = (status: number, code: number, title: string, details: string): GraphError =>
  new GraphError(status, code, 'OAuthException', `(#${code}) ${title}`, undefined, { messaging_product: 'whatsapp', details });

export const whatsappErrors = {
  /** 100: a missing, malformed or out-of-range request field (also malformed JSON). */
  invalidParameter: (details: string) => whatsappError(400, 100, 'Invalid parameter', details),
  /** 131009: a value outside the platform's limits (too many buttons, a title too long, duplicate ids). */
  parameterValueNotValid: (details: string) => whatsappError(400, 131009, 'Parameter value is not valid', details),
  /** 130429: throughput limit (HTTP 429). Retryable. */
  rateLimitHit: () => whatsappError(429, 130429, 'Rate limit hit', 'Cloud API message throughput has been reached.'),
  /** 131062: a message the platform sends to phone numbers only (authentication templates) addressed by user id (Meta, "Business-scoped user IDs", "Error codes"). */
  userIdNotSupported: () =>
    whatsappError(
      400,
      131062,
      'Business-scoped User ID (BSUID) recipients are not supported',
      'Business-scoped User ID (BSUID) recipients are not supported for this message.',
    ),
  /** 131056: too many messages from this business number to one recipient in a short time (HTTP 400). Retryable later. */
  pairRateLimitHit: () =>
    whatsappError(
      400,
      131056,
      '(Business Account, Consumer Account) pair rate limit hit',
      'Too many messages sent from the sender phone number to the same recipient phone number in a short period of time.',
    ),
  /** An error about the business account or number (contract §16), as the platform titles it. */
  accountError: (code: number) => {
    const known: Record<number, [number, string]> = {
      190: [401, 'Access token has expired'],
      0: [401, 'AuthException'],
      10: [403, 'Permission denied'],
      200: [403, 'Permission denied'],
      131031: [400, 'Account has been locked'],
      368: [400, 'Temporarily blocked for policies violations'],
      131042: [400, 'Business eligibility payment issue'],
      133010: [400, 'Account not registered'],
      131048: [400, 'Spam rate limit hit'],
    };
    const [status, title] = known[code] ?? [400, 'Account error'];
    return whatsappError(status, code, title, `${title}.`);
  },
  /** 133005: registering a number with a PIN other than its two-step verification PIN (Meta, "Phone number register" reference, error codes). */
  pinMismatch: () =>
    whatsappError(400, 133005, 'Two step verification PIN Mismatch', 'The two-step verification PIN does not match the PIN set for this phone number.'),
  /** 131000: transient platform fault (HTTP 500). Retryable. */
  somethingWentWrong: () => whatsappError(500, 131000, 'Something went wrong', 'Something went wrong.'),
  /** 132000: body parameter count differs from the template's distinct `{{n}}` placeholders. */
  paramCountMismatch: (component: string, given: number, expected: number) =>
    whatsappError(
      400,
      132000,
      'Number of parameters does not match the expected number of params',
      `${component}: number of localizable_params (${given}) does not match the expected number of params (${expected})`,
    ),
  /** 131008: a parameter the template requires is missing (a media header, a URL suffix, a code). */
  missingParameter: (details: string) => whatsappError(400, 131008, 'Required parameter is missing', details),
  /** 132012: a parameter of the wrong kind (an image for a video header, text for a location). */
  formatMismatch: (details: string) => whatsappError(400, 132012, 'Parameter format does not match format in the created template', details),
  /** 132000 for named parameters: positional ones for a named template (or the reverse), or an unknown `parameter_name`. */
  namedParameterMismatch: (details: string) => whatsappError(400, 132000, 'Number of parameters does not match the expected number of params', details),
  /** 132001: no usable template with that name in that language. */
  templateNotFound: (name: string, language: string) =>
    whatsappError(400, 132001, 'Template name does not exist in the translation', `template name (${name}) does not exist in ${language}`),
};

/** What a `failed` status report carries in `errors[]`. */
export interface StatusError {
  code: number;
  title: string;
  message: string;
  error_data: { details: string };
  href?: string;
}

export const ERROR_CODES_HREF = 'https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes/';

/** 131026: the recipient cannot receive the message (not on WhatsApp, old app, ...). */
export const messageUndeliverable = (): StatusError => ({
  code: 131026,
  title: 'Message undeliverable',
  message: 'Message undeliverable',
  error_data: { details: 'Message Undeliverable.' },
  href: ERROR_CODES_HREF,
});

/** A code the platform documents only by its description: that as title and details. */
const described = (description: string) => ({ title: description, details: description });

/**
 * Title and details of status failure codes: from a captured `failed` report where there is one
 * (test/fixtures/platform-webhooks, sources in docs/platform-payloads.md; 131049 is the status
 * webhook reference's own example), else the error-codes page's description as both
 * (docs/platform-requests.md §7.2). None has an `error_subcode`: no webhook example carries one.
 */
const STATUS_FAILURES: Record<number, { title: string; details: string }> = {
  131049: {
    title: 'This message was not delivered to maintain healthy ecosystem engagement.',
    details: 'In order to maintain a healthy ecosystem engagement, the message failed to be delivered.',
  },
  131047: {
    title: 'Re-engagement message',
    details: 'Message failed to send because more than 24 hours have passed since the customer last replied to this number.',
  },
  131053: { title: 'Media upload error', details: 'Unable to upload the media used in the message.' },
  130472: { title: "User's number is part of an experiment", details: "Failed to send message because this user's phone number is part of an experiment" },
  131000: described('Message failed to send due to an unknown error.'),
  131050: described('This recipient has chosen to stop receiving marketing messages on WhatsApp from your business.'),
  135000: described('Message failed to send because of an unknown error with your request parameters.'),
};

/**
 * A `failed` status report's error for any platform code (the `fail_status` fault), in the shape of
 * the status webhook reference's `failed` example (docs/platform-payloads.md §1.2).
 */
export function statusFailure(code: number): StatusError {
  if (code === 131026) return messageUndeliverable();
  const { title, details } = STATUS_FAILURES[code] ?? described('Message failed to send.');
  return { code, title, message: title, error_data: { details }, href: ERROR_CODES_HREF };
}
