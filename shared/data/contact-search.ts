import { indexes } from '#shared/data/table/table';
import { queryAll } from '#shared/data/table/query-all';
import { batchWrite, type WriteRequest } from '#shared/data/table/batch-write';
import type { DynamoDBRecord } from 'aws-lambda';
import { contactFromStreamImage, contactKey } from '#shared/data/contact';
import { digitSuffixes, entryKey, type SearchTerm, wordStartSuffixes } from '#shared/search-text';

/**
 * The contact search index: one small item per word start of the contact's name and email
 * (the folded text from there on) and per digit run start of its number, in the contact's item
 * collection, listed under `byParent` by its first character, so a search is a key-prefix
 * query reading only the entries that match. They follow the contact through the table's stream
 * (indexContacts), so a bulk import writes only the contacts themselves (docs/data-model.md,
 * pattern 15 and "Search at scale").
 */
const SEARCH_ENTRY = 'SEARCH#';

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

const put = (ws: string, contactPk: string, contactId: string, entry: Entry): WriteRequest => ({
  PutRequest: {
    Item: {
      ...entryItemKey(contactPk, entry),
      GSI1PK: listOf(ws, entry.kind, entry.key),
      GSI1SK: entry.key,
      contact_id: contactId,
      ...(entry.text !== entry.key && { text: entry.text }),
    },
  },
});
const remove = (contactPk: string, entry: Entry): WriteRequest => ({ DeleteRequest: { Key: entryItemKey(contactPk, entry) } });

/** A contact as one run of the table's stream saw it change: before the run's first change (absent: created) and after its last (absent: deleted). */
interface ContactChange {
  ws: string;
  id: string;
  before?: Searchable;
  after?: Searchable;
}

/**
 * The contacts a run of the table's stream changed, each from before its first change to after
 * its last: one write per entry key (BatchWriteItem refuses a key twice).
 */
function contactChangesOf(records: DynamoDBRecord[]): ContactChange[] {
  const changes = new Map<string, ContactChange>();
  for (const record of records) {
    const [after, before] = [contactFromStreamImage(record.dynamodb?.NewImage), contactFromStreamImage(record.dynamodb?.OldImage)];
    const found = after ?? before;
    if (!found) continue;
    const key = `${found.workspace_id}#${found.contact.id}`;
    const earlier = changes.get(key);
    changes.set(key, { ws: found.workspace_id, id: found.contact.id, before: earlier ? earlier.before : before?.contact, after: after?.contact });
  }
  return [...changes.values()];
}

/** The entry writes that take a contact's entries from `before`'s to `after`'s: only those whose key changed. */
function entryWrites({ ws, id, before, after }: ContactChange): WriteRequest[] {
  const contactPk = contactKey(ws, id).PK;
  const old = new Map((before ? entriesOf(before) : []).map((entry) => [sortKeyOf(entry), entry]));
  const wanted = new Map((after ? entriesOf(after) : []).map((entry) => [sortKeyOf(entry), entry]));
  return [
    ...[...old].filter(([key]) => !wanted.has(key)).map(([, entry]) => remove(contactPk, entry)),
    ...[...wanted].filter(([key]) => !old.has(key)).map(([, entry]) => put(ws, contactPk, id, entry)),
  ];
}

/**
 * BatchWriteItem calls in flight per stream batch: a 500-contact import's ~5,500 entries, written 16
 * at a time, took DynamoDB Local from the import's own transactions (the import 6.6 s beside them;
 * 1.9 s with two at a time, docs/performance.md); two at a time index 100 contacts in about 22 round trips.
 */
const INDEX_CONCURRENCY = 2;

/**
 * Brings the entries of the contacts a run of the table's stream changed in line with them
 * (BatchWriteItem, outside the contacts' own writes: docs/data-model.md, "Search at scale"); other
 * records are passed over. Puts and deletes are idempotent, and the stream gives a contact's changes
 * in order, so a run given again, whole or split, ends with the entries of the contact as last written.
 */
export const indexContactsOf = (records: DynamoDBRecord[]): Promise<void> =>
  batchWrite(contactChangesOf(records).flatMap(entryWrites), { concurrency: INDEX_CONCURRENCY });

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
