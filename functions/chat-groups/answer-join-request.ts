import { answerJoinRequest } from '#shared/domain/chat-groups/manage';
import { chatGroupView } from '#shared/domain/chat-groups/chat-group';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { AnswerChatGroupJoinRequest } from '#shared/schemas/operations/chat-groups';

export const handler = httpOperation(AnswerChatGroupJoinRequest.request, async ({ params, body, workspace }) =>
  ok(chatGroupView(await answerJoinRequest(workspace.id, params.id, params.request_id, body.approve))),
);
