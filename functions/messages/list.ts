import { listMessages } from '#shared/domain/messages/list';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { listMessagesQuery } from '#shared/schemas/messages';

export const handler = httpOperation({ query: listMessagesQuery }, async ({ query, workspace }) => {
  const { data, pagination } = await listMessages(workspace.id, query);
  return ok(data, { pagination });
});
