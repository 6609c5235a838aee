import { listMessages } from '#shared/domain/messages/list';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { ListMessages } from '#shared/schemas/operations/messages';

export const handler = httpOperation(ListMessages.request, async ({ query, workspace, listShards }) => {
  const { data, pagination } = await listMessages(workspace, query, listShards);
  return ok(data, { pagination });
});
