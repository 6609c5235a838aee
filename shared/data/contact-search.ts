import { indexes } from '#shared/data/table/table';
import { tableName } from '#shared/data/table/client';
import { queryAll } from '#shared/data/table/query-all';
import type { TransactItem } from '#shared/data/table/transact';
import { digitSuffixes, entryKey, type SearchTerm, wordStartSuffixes } from '#shared/search-text';

/**
 * The contact search index: one small item per word start of the contact's name and email
 * (the folded text from there on) and per digit run start of its number, in the contact's item
 * collection, listed under `byParent` by its first character, so a search is a key-prefix
 * query reading only the entries that match (docs/data-model.md, pattern 15 and "Search at scale").
 */
export const SEARCH_ENTRY = 'SEARCH#';

type Kind = 'T' | 'P';

interface Entry {
  kind: Kind;
  /** The indexed text, its first ENTRY_KEY_CHARS characters: a folded name or email from a word start, or the digits from a run start. */
  key: string;
  /** The whole text, kept on the item when longer than its key, so a long term is confirmed without reading the contact. */
  text: string;
}

interface Searchable {
  id: string;
  name: string | null;
  email: string | null;
  phone_number: string;
}

/** The entries a contact has: text from its name and email, digits from its number. */
function entriesOf(contact: Searchable): Entry[] {
  const texts = new Map([...wordStartSuffixes(contact.name ?? ''), ...wordStartSuffixes(contact.email ?? '')].map((text) => [entryKey(text), text]));
  return [
    ...[...texts].map(([key, text]): Entry => ({ kind: 'T', key, text })),
    ...digitSuffixes(contact.phone_number).map((digits): Entry => ({ kind: 'P', key: digits, text: digits })),
  ];
}

/** Entries are listed per workspace, kind and first character, so one prefix query reads one list. */
const listOf = (ws: string, kind: Kind, key: string) => `WS#${ws}#SEARCH#${kind}#${Array.from(key)[0]}`;
const sortKeyOf = (entry: Entry) => `${SEARCH_ENTRY}${entry.kind}#${entry.key}`;
const entryItemKey = (contactPk: string, entry: Entry) => ({ PK: contactPk, SK: sortKeyOf(entry) });

const put = (ws: string, contactPk: string, contactId: string, entry: Entry): TransactItem => ({
  Put: {
    TableName: tableName(),
    Item: {
      ...entryItemKey(contactPk, entry),
      GSI1PK: listOf(ws, entry.kind, entry.key),
      GSI1SK: entry.key,
      contact_id: contactId,
      ...(entry.text !== entry.key && { text: entry.text }),
    },
  },
});
const remove = (contactPk: string, entry: Entry): TransactItem => ({ Delete: { TableName: tableName(), Key: entryItemKey(contactPk, entry) } });

/** A new contact's entries, written with it. */
export const searchEntryPuts = (ws: string, contactPk: string, contact: Searchable): TransactItem[] =>
  entriesOf(contact).map((entry) => put(ws, contactPk, contact.id, entry));

/** How many items searchEntryPuts writes for a contact (transactions are packed by item count). */
export const searchEntryCount = (contact: Searchable): number => entriesOf(contact).length;

/** The entry changes from `before` to `after`, written in the same transaction as the contact. */
export function searchEntryChanges(ws: string, contactPk: string, before: Searchable, after: Searchable): TransactItem[] {
  const old = new Map(entriesOf(before).map((entry) => [sortKeyOf(entry), entry]));
  const wanted = new Map(entriesOf(after).map((entry) => [sortKeyOf(entry), entry]));
  return [
    ...[...old].filter(([key]) => !wanted.has(key)).map(([, entry]) => remove(contactPk, entry)),
    ...[...wanted].filter(([key]) => !old.has(key)).map(([, entry]) => put(ws, contactPk, after.id, entry)),
  ];
}

/** Deletes of the entries found in a contact's collection (by sort key), when the contact goes. */
export const searchEntryDeletes = (contactPk: string, sortKeys: string[]): TransactItem[] =>
  sortKeys.filter((sk) => sk.startsWith(SEARCH_ENTRY)).map((SK) => ({ Delete: { TableName: tableName(), Key: { PK: contactPk, SK } } }));

/** The ids of the contacts with an entry of this kind starting with `text`: a prefix query on its key, a longer text compared whole. */
async function matching(ws: string, kind: Kind, text: string): Promise<string[]> {
  const key = entryKey(text);
  const items = await queryAll<{ contact_id: string; GSI1SK: string; text?: string }>({
    IndexName: indexes.byParent.indexName,
    KeyConditionExpression: 'GSI1PK = :list AND begins_with(GSI1SK, :key)',
    ExpressionAttributeValues: { ':list': listOf(ws, kind, key), ':key': key },
    ProjectionExpression: 'contact_id, GSI1SK, #text',
    ExpressionAttributeNames: { '#text': 'text' },
  });
  return items.filter((item) => key === text || (item.text ?? item.GSI1SK).startsWith(text)).map((item) => item.contact_id);
}

/**
 * The ids of the contacts a term matches, newest first (ids are UUIDv7): a name or email word
 * starting with its text, or a number containing its digits. Reads only the matching entries.
 */
export async function searchContactIds(ws: string, term: SearchTerm): Promise<string[]> {
  const found = await Promise.all([term.text ? matching(ws, 'T', term.text) : [], term.digits ? matching(ws, 'P', term.digits) : []]);
  return [...new Set(found.flat())].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0));
}
