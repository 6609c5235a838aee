import { createChatGroup } from '#shared/domain/chat-groups/create';
import { chatGroupView } from '#shared/domain/chat-groups/chat-group';
import { httpOperation } from '#shared/http/operation';
import { accepted } from '#shared/http/responses';
import { CreateChatGroup } from '#shared/schemas/operations/chat-groups';

export const handler = httpOperation(CreateChatGroup.request, async ({ body, workspace }) => accepted(chatGroupView(await createChatGroup(workspace, body))));
