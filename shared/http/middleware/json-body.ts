import { httpErrors } from '#shared/http/errors';
import type { ApiMiddleware } from '#shared/http/context';

export const MAX_BODY_BYTES = 1024 * 1024;

const isJson = (contentType: string | undefined) => /^application\/json\s*(;|$)/i.test(contentType?.trim() ?? '');

/**
 * Parses a JSON body into `event.body`-as-object (kept on `rawBody` too, for idempotency hashing).
 * Size is checked before the media type, and both before parsing.
 */
export const jsonBody = (): ApiMiddleware => ({
  before: ({ event }) => {
    if (event.body === undefined || event.body === null || event.body === '') return;
    const raw = event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
    if (Buffer.byteLength(raw, 'utf8') > MAX_BODY_BYTES) throw httpErrors.payloadTooLarge(MAX_BODY_BYTES);
    if (!isJson(event.headers['content-type'])) throw httpErrors.unsupportedMediaType();
    try {
      (event as { parsedBody?: unknown }).parsedBody = JSON.parse(raw);
    } catch {
      throw httpErrors.invalidJson();
    }
  },
});
