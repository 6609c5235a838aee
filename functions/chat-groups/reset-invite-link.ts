import { newInviteLink } from '#shared/domain/chat-groups/manage';
import { chatGroupView } from '#shared/domain/chat-groups/chat-group';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { ResetChatGroupInviteLink } from '#shared/schemas/operations/chat-groups';

export const handler = httpOperation(ResetChatGroupInviteLink.request, async ({ params, workspace }) =>
  ok(chatGroupView(await newInviteLink(workspace.id, params.id))),
);
