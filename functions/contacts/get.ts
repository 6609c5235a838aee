import { publicContact } from '#shared/domain/contacts/contact';
import { requireContact } from '#shared/domain/contacts/lifecycle';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { idParams } from '#shared/schemas/common';

export const handler = httpOperation({ params: idParams }, async ({ params, workspace }) => {
  return ok(publicContact(await requireContact(workspace.id, params.id, true)));
});
