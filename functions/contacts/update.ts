import { publicContact } from '#shared/domain/contacts/contact';
import { updateContact } from '#shared/domain/contacts/lifecycle';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { UpdateContact } from '#shared/schemas/operations/contacts';

export const handler = httpOperation(UpdateContact.request, async ({ params, body, workspace }) =>
  ok(publicContact(await updateContact(workspace.id, params.id, body))),
);
