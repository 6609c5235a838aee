import { queryAll } from '#shared/data/table/query-all';
import { getMany, queryPage, readCounter } from '#shared/data/table/pages';
import { pagination } from '#shared/pagination';
import { counterNames, keys } from '#shared/data/keys';
import { indexes } from '#shared/data/table/table';
import { publicContact, tagKey, type Contact } from '#shared/domain/contacts/contact';

export interface ContactQuery {
  page: number;
  pageSize: number;
  search?: string;
  tag?: string;
}

/** Newest first (ids are UUIDv7) under one `byParent` partition. */
function children(GSI1PK: string, filter?: { expression: string; values: Record<string, string> }) {
  return {
    IndexName: indexes.byParent.indexName,
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': GSI1PK, ...filter?.values },
    ...(filter && { FilterExpression: filter.expression }),
    ScanIndexForward: false,
  };
}

/** A case-insensitive substring of the name, or a substring of the phone digits. */
function searchFilter(search: string) {
  const digits = search.replace(/\D/g, '');
  const values: Record<string, string> = { ':name': search.toLowerCase() };
  if (!digits) return { expression: 'contains(name_lc, :name)', values };
  return { expression: 'contains(name_lc, :name) OR contains(phone_number, :digits)', values: { ...values, ':digits': digits } };
}

const matches = (contact: Contact, search: string) => {
  const digits = search.replace(/\D/g, '');
  return Boolean(contact.name?.toLowerCase().includes(search.toLowerCase()) || (digits && contact.phone_number.includes(digits)));
};

const contactsByIds = (ws: string, ids: string[]) => getMany<Contact>(ids.map((id) => keys.contact(ws, id)));

async function allTagged(ws: string, tag: string): Promise<Contact[]> {
  const members = await queryAll<{ GSI1SK: string }>(children(keys.taggedList(ws, tag).GSI1PK));
  return contactsByIds(ws, members.map((member) => member.GSI1SK));
}

/**
 * Plain and tag lists read one page and an exact counter. Search reads its whole candidate set
 * (the workspace's contacts, filtered by DynamoDB, or the tag's members) so its count is exact;
 * the cost is in docs/data-model.md.
 */
export async function listContacts(ws: string, query: ContactQuery) {
  const { page, pageSize, search } = query;
  const tag = query.tag === undefined ? undefined : tagKey(query.tag.trim());
  const page_ = <T>(items: T[]) => items.slice((page - 1) * pageSize, page * pageSize);

  if (search) {
    const found = tag
      ? (await allTagged(ws, tag)).filter((contact) => matches(contact, search))
      : await queryAll<Contact>(children(keys.contactList(ws).GSI1PK, searchFilter(search)));
    return { data: page_(found).map(publicContact), pagination: pagination(page, pageSize, found.length) };
  }

  if (tag) {
    const [members, totalCount] = await Promise.all([
      queryPage<{ GSI1SK: string }>(children(keys.taggedList(ws, tag).GSI1PK), page, pageSize),
      readCounter(keys.counter(ws, counterNames.tag(tag))),
    ]);
    const contacts = await contactsByIds(ws, members.map((member) => member.GSI1SK));
    return { data: contacts.map(publicContact), pagination: pagination(page, pageSize, totalCount) };
  }

  const [contacts, totalCount] = await Promise.all([
    queryPage<Contact>(children(keys.contactList(ws).GSI1PK), page, pageSize),
    readCounter(keys.counter(ws, counterNames.contacts)),
  ]);
  return { data: contacts.map(publicContact), pagination: pagination(page, pageSize, totalCount) };
}
