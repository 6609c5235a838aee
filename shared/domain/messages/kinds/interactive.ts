import type { SessionKind } from '#shared/domain/messages/kinds/kind';
import { interactiveObject, type InteractiveContent } from '#shared/platform/payloads/interactive';

/** The request's `interactive`, kept on the message as given and sent in the platform's shape. */
export type InteractiveInput = InteractiveContent;

/** Reply buttons (up to 3) and lists (up to 10 rows): the customer's choice comes back as an inbound `interactive` message. */
export const interactive: SessionKind<InteractiveInput> = {
  accept: (_ws, input) => ({ content: input.body, interactive: { ...input } }),
  platformObject: (message) => interactiveObject(message.interactive as unknown as InteractiveInput),
};
