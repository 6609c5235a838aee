import { chatGroupView, requireChatGroup } from '#shared/domain/chat-groups/chat-group';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { GetChatGroup } from '#shared/schemas/operations/chat-groups';

export const handler = httpOperation(GetChatGroup.request, async ({ params, workspace }) =>
  ok(chatGroupView(await requireChatGroup(workspace.id, params.id, true))),
);
