import { acceptMessage } from '#shared/domain/messages/accept';
import { createdView } from '#shared/domain/messages/message';
import { httpOperation } from '#shared/http/operation';
import { accepted } from '#shared/http/responses';
import { SendMessage } from '#shared/schemas/operations/messages';

export const handler = httpOperation(SendMessage.request, async ({ body, workspace, resourceId }) =>
  accepted(createdView(await acceptMessage(workspace, body, resourceId))),
);
