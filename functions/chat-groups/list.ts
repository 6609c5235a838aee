import { listChatGroups } from '#shared/domain/chat-groups/manage';
import { chatGroupView } from '#shared/domain/chat-groups/chat-group';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { ListChatGroups } from '#shared/schemas/operations/chat-groups';

export const handler = httpOperation(ListChatGroups.request, async ({ query, workspace }) => {
  const { groups, pagination } = await listChatGroups(workspace.id, query.page, query.pageSize);
  return ok(groups.map(chatGroupView), { pagination });
});
