import * as v from 'valibot';
import { importContacts } from '#shared/domain/contacts/bulk';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';

/** Items are validated one by one in the import, so one bad item never fails the rest. */
const body = v.object({
  contacts: v.pipe(v.array(v.unknown()), v.minLength(1, 'At least 1 contact'), v.maxLength(500, 'At most 500 contacts per request')),
});

export const handler = httpOperation({ body }, async ({ body, workspace }) => ok(await importContacts(workspace.id, body.contacts)));
