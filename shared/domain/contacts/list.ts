import { contactsByIds } from '#shared/data/contact';
import { contactsCarrying, contactsPage, taggedContactIds, taggedPage } from '#shared/data/contact-list';
import { searchContactIds } from '#shared/data/contact-search';
import { readListCount, counterNames } from '#shared/data/counter';
import { pagination } from '#shared/pagination';
import { parseTerm } from '#shared/search-text';
import { publicContact } from '#shared/domain/contacts/contact';
import { tagKey } from '#shared/records/contact';

export interface ContactQuery {
  page: number;
  pageSize: number;
  search?: string;
  tag?: string;
}

/**
 * The matches of a search that also carry a tag: whichever of the two sets is smaller is read
 * in full (the tag's members, or a tag item per match), so the cost follows the smaller one.
 */
async function withTag(ws: string, ids: string[], tag: string): Promise<string[]> {
  if (!ids.length) return [];
  const members =
    (await readListCount(ws, counterNames.tag(tag))) <= ids.length ? new Set(await taggedContactIds(ws, tag)) : await contactsCarrying(ws, tag, ids);
  return ids.filter((id) => members.has(id));
}

/**
 * Plain and tag lists read one page and an exact counter. A search reads the index entries
 * that match its term (contract §7 as docs/decisions.md refines it), so its count is exact and
 * its cost follows the matches, not the contact book; then the page's contacts by key.
 */
export async function listContacts(ws: string, query: ContactQuery) {
  const { page, pageSize, search } = query;
  const tag = query.tag === undefined ? undefined : tagKey(query.tag.trim());

  if (search) {
    const matches = await searchContactIds(ws, parseTerm(search));
    const found = tag === undefined ? matches : await withTag(ws, matches, tag);
    const contacts = await contactsByIds(ws, found.slice((page - 1) * pageSize, page * pageSize));
    return { data: contacts.map(publicContact), pagination: pagination(page, pageSize, found.length) };
  }
  const { contacts, total } = tag ? await taggedPage(ws, tag, page, pageSize) : await contactsPage(ws, page, pageSize);
  return { data: contacts.map(publicContact), pagination: pagination(page, pageSize, total) };
}
