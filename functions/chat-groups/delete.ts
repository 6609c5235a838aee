import { deleteChatGroup } from '#shared/domain/chat-groups/manage';
import { chatGroupView } from '#shared/domain/chat-groups/chat-group';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { DeleteChatGroup } from '#shared/schemas/operations/chat-groups';

export const handler = httpOperation(DeleteChatGroup.request, async ({ params, workspace }) =>
  ok(chatGroupView(await deleteChatGroup(workspace.id, params.id))),
);
