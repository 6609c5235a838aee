import { listParticipants } from '#shared/domain/chat-groups/manage';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { ListChatGroupParticipants } from '#shared/schemas/operations/chat-groups';

export const handler = httpOperation(ListChatGroupParticipants.request, async ({ params, workspace }) => ok(await listParticipants(workspace.id, params.id)));
