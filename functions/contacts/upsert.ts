import { createContactBody } from '#shared/schemas/contacts';
import { publicContact } from '#shared/domain/contacts/contact';
import { upsertContact } from '#shared/domain/contacts/lifecycle';
import { httpOperation } from '#shared/http/operation';
import { created, ok } from '#shared/http/responses';

export const handler = httpOperation({ body: createContactBody }, async ({ body: { phone_number, ...changes }, workspace }) => {
  const result = await upsertContact(workspace.id, phone_number, changes);
  return (result.created ? created : ok)(publicContact(result.contact));
});
