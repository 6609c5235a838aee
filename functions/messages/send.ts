import { acceptMessage } from '#shared/domain/messages/accept';
import { createdView } from '#shared/domain/messages/message';
import { httpOperation } from '#shared/http/operation';
import { accepted } from '#shared/http/responses';
import { sendMessageBody } from '#shared/schemas/messages';

export const handler = httpOperation({ body: sendMessageBody, idempotentAs: 'POST /api/v1/messages' }, async ({ body, workspace, resourceId }) =>
  accepted(createdView(await acceptMessage(workspace.id, body, resourceId))),
);
