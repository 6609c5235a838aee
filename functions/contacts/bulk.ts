import { importContacts } from '#shared/domain/contacts/bulk';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { readBulkItem } from '#shared/schemas/contacts';
import { ImportContacts } from '#shared/schemas/operations/contacts';

export const handler = httpOperation(ImportContacts.request, async ({ body, workspace }) =>
  ok(
    await importContacts(
      workspace.id,
      body.contacts.map((item) => readBulkItem(item)),
    ),
  ),
);
