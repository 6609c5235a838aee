import { deleteContact } from '#shared/domain/contacts/lifecycle';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { DeleteContact } from '#shared/schemas/operations/contacts';

export const handler = httpOperation(DeleteContact.request, async ({ params, workspace }) => {
  const contact = await deleteContact(workspace.id, params.id);
  return ok({ id: contact.id, phone_number: contact.phone_number, deleted: true });
});
