import { listContacts } from '#shared/domain/contacts/list';
import { httpOperation } from '#shared/http/operation';
import { listContactsQuery } from '#shared/schemas/contacts';
import { ok } from '#shared/http/responses';

export const handler = httpOperation({ query: listContactsQuery }, async ({ query, workspace }) => {
  const { data, pagination } = await listContacts(workspace.id, query);
  return ok(data, { pagination });
});
