import { createContactBody, importContactsBody, listContactsQuery, updateContactBody } from '#shared/schemas/contacts';
import { idParams } from '#shared/schemas/common';
import type { ApiKeyOperation } from '#shared/schemas/operations/description';

export const UpsertContact = {
  tag: 'Contacts',
  summary: 'Create a contact, or update the one with this phone number',
  description: 'Fields given replace the stored ones, except `custom_fields`, merged key by key (a null value deletes the key).',
  auth: 'apiKey',
  request: { body: createContactBody },
  bodyExample: { phone_number: '+1 415 555 0111', name: 'Ada Lovelace', email: 'ada@example.com', tags: ['vip'], custom_fields: { city: 'London' } },
  success: [
    { status: 201, data: 'contact', when: 'The contact was created' },
    { status: 200, data: 'contact', when: 'The contact with this phone number was updated' },
  ],
  errors: ['invalid_state'],
} satisfies ApiKeyOperation;

export const ListContacts = {
  tag: 'Contacts',
  summary: 'List contacts, newest first',
  description:
    '`search` matches names and emails from the start of any word, case and accents ignored (`suite 4b` finds "Acme Suite 4B"); a term that looks like a phone number (digits with `+`, spaces, dashes, dots or parentheses) matches a run of the number\'s digits instead, with or without the country code. `tag` matches a tag case-insensitively. Both compose with paging and `totalCount`.',
  auth: 'apiKey',
  request: { query: listContactsQuery },
  success: [{ status: 200, data: 'contact', list: 'pages' }],
} satisfies ApiKeyOperation;

export const ImportContacts = {
  tag: 'Contacts',
  summary: 'Import up to 500 contacts',
  description:
    'Items take `phone` (or `phone_number`), `name`, `email`, `tags` and `custom_fields`, and are validated one by one: a bad item fails alone and is reported in `errors`. A phone repeated within the request: the first wins, later ones fail with `duplicate_in_request`.',
  auth: 'apiKey',
  request: { body: importContactsBody },
  success: [{ status: 200, data: 'contactImport' }],
} satisfies ApiKeyOperation;

export const GetContact = {
  tag: 'Contacts',
  summary: 'Get a contact',
  auth: 'apiKey',
  request: { params: idParams },
  success: [{ status: 200, data: 'contact' }],
  errors: ['not_found'],
} satisfies ApiKeyOperation;

export const UpdateContact = {
  tag: 'Contacts',
  summary: 'Update a contact',
  description: 'Same field rules as the upsert; `"opted_out": false` clears an opt-out. A phone number of another contact is 409.',
  auth: 'apiKey',
  request: { params: idParams, body: updateContactBody },
  success: [{ status: 200, data: 'contact' }],
  errors: ['not_found', 'invalid_state'],
} satisfies ApiKeyOperation;

export const DeleteContact = {
  tag: 'Contacts',
  summary: 'Delete a contact',
  description: 'It leaves its groups.',
  auth: 'apiKey',
  request: { params: idParams },
  success: [{ status: 200, data: 'contactDeletion' }],
  errors: ['not_found', 'invalid_state'],
} satisfies ApiKeyOperation;
