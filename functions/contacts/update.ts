import { updateContactBody } from '#shared/domain/contacts/schema';
import { publicContact } from '#shared/domain/contacts/contact';
import { updateContact } from '#shared/domain/contacts/store';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { idParams } from '#shared/http/schemas';

export const handler = httpOperation({ params: idParams, body: updateContactBody }, async ({ params, body, workspace }) =>
  ok(publicContact(await updateContact(workspace.id, params.id, body))),
);
