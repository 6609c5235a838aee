import { removeParticipant } from '#shared/domain/chat-groups/manage';
import { chatGroupView } from '#shared/domain/chat-groups/chat-group';
import { httpOperation } from '#shared/http/operation';
import { accepted } from '#shared/http/responses';
import { RemoveChatGroupParticipant } from '#shared/schemas/operations/chat-groups';

export const handler = httpOperation(RemoveChatGroupParticipant.request, async ({ params, workspace }) =>
  accepted(chatGroupView(await removeParticipant(workspace.id, params.id, params.wa_id))),
);
