import { publicContact } from '#shared/domain/contacts/contact';
import { requireContact } from '#shared/domain/contacts/lifecycle';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { GetContact } from '#shared/schemas/operations/contacts';

export const handler = httpOperation(GetContact.request, async ({ params, workspace }) => {
  return ok(publicContact(await requireContact(workspace.id, params.id, true)));
});
