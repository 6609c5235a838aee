import { publicContact } from '#shared/domain/contacts/contact';
import { getContact } from '#shared/domain/contacts/store';
import { errors } from '#shared/errors';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { idParams } from '#shared/http/schemas';

export const handler = httpOperation({ params: idParams }, async ({ params, workspace }) => {
  const contact = await getContact(workspace.id, params.id, true);
  if (!contact) throw errors.notFound('Contact');
  return ok(publicContact(contact));
});
