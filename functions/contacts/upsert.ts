import { publicContact } from '#shared/domain/contacts/contact';
import { upsertContact } from '#shared/domain/contacts/lifecycle';
import { httpOperation } from '#shared/http/operation';
import { created, ok } from '#shared/http/responses';
import { UpsertContact } from '#shared/schemas/operations/contacts';

export const handler = httpOperation(UpsertContact.request, async ({ body: { phone_number, ...changes }, workspace }) => {
  const result = await upsertContact(workspace.id, phone_number, changes);
  return (result.created ? created : ok)(publicContact(result.contact));
});
