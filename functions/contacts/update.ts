import { updateContactBody } from '#shared/schemas/contacts';
import { publicContact } from '#shared/domain/contacts/contact';
import { updateContact } from '#shared/domain/contacts/lifecycle';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { idParams } from '#shared/schemas/common';

export const handler = httpOperation({ params: idParams, body: updateContactBody }, async ({ params, body, workspace }) =>
  ok(publicContact(await updateContact(workspace.id, params.id, body))),
);
