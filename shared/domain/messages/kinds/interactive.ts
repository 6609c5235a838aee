import type { SessionKind } from '#shared/domain/messages/kinds/kind';
import { requireValidFlow } from '#shared/domain/messages/kinds/flow-rules';
import { interactiveObject, type InteractiveContent } from '#shared/platform/payloads/interactive';

/** The request's `interactive`, kept on the message as given and sent in the platform's shape. */
export type InteractiveInput = InteractiveContent;

/**
 * Reply buttons (up to 3), lists (up to 10 rows), flows, and the request for permission to call
 * (sent by `POST /calls/permission-requests`): the customer's choice, a flow's answers
 * (`nfm_reply`) or the permission reply comes back as an inbound `interactive` message.
 */
export const interactive: SessionKind<InteractiveInput> = {
  accept: (_ws, input) => {
    if (input.type === 'flow') requireValidFlow(input);
    return { content: input.body ?? '', interactive: { ...input } };
  },
  platformObject: (message) => interactiveObject(message.interactive as unknown as InteractiveInput),
};
