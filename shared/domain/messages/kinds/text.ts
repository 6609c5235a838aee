import type { SessionKind } from '#shared/domain/messages/kinds/kind';

/** Free-form text; links are not previewed. */
export const text: SessionKind<string> = {
  accept: (_ws, body) => ({ content: body }),
  platformObject: (message) => ({ body: message.content, preview_url: false }),
};
