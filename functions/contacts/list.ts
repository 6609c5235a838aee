import { listContacts } from '#shared/domain/contacts/list';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { ListContacts } from '#shared/schemas/operations/contacts';

export const handler = httpOperation(ListContacts.request, async ({ query, workspace }) => {
  const { data, pagination } = await listContacts(workspace.id, query);
  return ok(data, { pagination });
});
