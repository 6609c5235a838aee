import { importContacts } from '#shared/domain/contacts/bulk';
import { httpOperation } from '#shared/http/operation';
import { importContactsBody } from '#shared/schemas/contacts';
import { ok } from '#shared/http/responses';

export const handler = httpOperation({ body: importContactsBody }, async ({ body, workspace }) => ok(await importContacts(workspace.id, body.contacts)));
