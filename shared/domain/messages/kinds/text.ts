import type { SessionKind } from '#shared/domain/messages/kinds/kind';
import { textObject } from '#shared/platform/payloads/text';

/** Free-form text; links are not previewed. */
export const text: SessionKind<string> = {
  accept: (_ws, body) => ({ content: body }),
  platformObject: (message) => textObject(message.content),
};
