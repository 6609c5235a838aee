import { allTagged, contactsPage, searchContacts, taggedPage } from '#shared/data/contact';
import { pagination } from '#shared/pagination';
import { publicContact, tagKey, type Contact } from '#shared/domain/contacts/contact';

export interface ContactQuery {
  page: number;
  pageSize: number;
  search?: string;
  tag?: string;
}

/** A case-insensitive substring of the name, or a substring of the phone digits. */
const matches = (contact: Contact, search: string) => {
  const digits = search.replace(/\D/g, '');
  return Boolean(contact.name?.toLowerCase().includes(search.toLowerCase()) || (digits && contact.phone_number.includes(digits)));
};

/**
 * Plain and tag lists read one page and an exact counter. Search reads its whole candidate set
 * (the workspace's contacts, filtered by DynamoDB, or the tag's members) so its count is exact;
 * the cost is in docs/data-model.md.
 */
export async function listContacts(ws: string, query: ContactQuery) {
  const { page, pageSize, search } = query;
  const tag = query.tag === undefined ? undefined : tagKey(query.tag.trim());

  if (search) {
    const found = tag ? (await allTagged(ws, tag)).filter((contact) => matches(contact, search)) : await searchContacts(ws, search.toLowerCase(), search.replace(/\D/g, ''));
    return { data: found.slice((page - 1) * pageSize, page * pageSize).map(publicContact), pagination: pagination(page, pageSize, found.length) };
  }
  const { contacts, total } = tag ? await taggedPage(ws, tag, page, pageSize) : await contactsPage(ws, page, pageSize);
  return { data: contacts.map(publicContact), pagination: pagination(page, pageSize, total) };
}
