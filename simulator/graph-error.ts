import { randomBytes } from 'node:crypto';

const DOCS = 'Please read the Graph API documentation at https://developers.facebook.com/docs/graph-api';

/** WhatsApp Cloud API errors carry `error_data: { messaging_product: "whatsapp", details }`. */
export interface GraphErrorData {
  messaging_product: 'whatsapp';
  details: string;
}

/**
 * A failure rendered exactly as the Graph API does:
 * `{ "error": { message, type, code, error_data?, error_subcode?, fbtrace_id } }`.
 */
export class GraphError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    readonly type: string,
    message: string,
    readonly subcode?: number,
    readonly errorData?: GraphErrorData,
    /** What the platform tells a person (`error_user_title`, `error_user_msg`), as on template management errors. */
    readonly user?: { title: string; message: string },
  ) {
    super(message);
    this.name = 'GraphError';
  }

  /** The response body; every error gets a fresh random `fbtrace_id`, as on Graph. */
  body(): { error: Record<string, unknown> } {
    return {
      error: {
        message: this.message,
        type: this.type,
        code: this.code,
        ...(this.errorData && { error_data: this.errorData }),
        ...(this.subcode !== undefined && { error_subcode: this.subcode }),
        ...(this.user && { is_transient: false, error_user_title: this.user.title, error_user_msg: this.user.message }),
        fbtrace_id: fbtraceId(),
      },
    };
  }

  /** Graph repeats the error in a `WWW-Authenticate` header. */
  headers(): Record<string, string> {
    const kind = this.code === 190 ? 'invalid_token' : 'invalid_request';
    return { 'WWW-Authenticate': `OAuth "Facebook Platform" "${kind}" "${this.message.replace(/"/g, "'")}"` };
  }
}

/** Graph-looking trace id, e.g. `AkLl12hQO-eJrTGPABAL-o6`. */
export const fbtraceId = (): string => `A${randomBytes(17).toString('base64url').slice(0, 22)}`;

export const graphErrors = {
  /** Missing, unknown or malformed access token. */
  invalidAccessToken: () => new GraphError(401, 190, 'OAuthException', 'Invalid OAuth access token - Cannot parse access token'),
  /** No route for this method and path; `objectId` is the node the path starts with, if any. */
  unsupportedRequest: (method: string, objectId?: string) =>
    objectId
      ? new GraphError(
          400,
          100,
          'GraphMethodException',
          `Unsupported ${method.toLowerCase()} request. Object with ID '${objectId}' does not exist, cannot be loaded due to missing permissions, or does not support this operation. ${DOCS}`,
          33,
        )
      : new GraphError(400, 100, 'GraphMethodException', `Unsupported ${method.toLowerCase()} request. ${DOCS}`),
  /** A bad query or body parameter (Graph prefixes these messages with the code). */
  invalidParameter: (message: string) => new GraphError(400, 100, 'OAuthException', `(#100) ${message}`),
  /** Anything unexpected inside the simulator: Graph's generic "unknown error". */
  unknown: () => new GraphError(500, 1, 'OAuthException', 'An unknown error has occurred.'),
};
