import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#shared/data/table/client';
import { getMany, queryPage } from '#shared/data/table/pages';
import { queryAll } from '#shared/data/table/query-all';
import { indexes } from '#shared/data/table/table';
import { failedConditions, MAX_TRANSACTION_ITEMS, transact, type TransactItem } from '#shared/data/table/transact';
import { applyUnits, GuardFailed, type Unit } from '#shared/data/table/units';
import { mapLimit } from '#shared/concurrency';
import { counterKey, counterMove, counterNames, readListCount } from '#shared/data/counter';
import { CONTACT_GROUP, leaveUnit } from '#shared/data/group';
import { tagKey, type Contact, type CustomFieldValue, type StoredContact } from '#shared/records/contact';
import { SEARCH_ENTRY, searchEntryChanges, searchEntryCount, searchEntryDeletes, searchEntryPuts } from '#shared/data/contact-search';

/**
 * A contact, its phone-number claim (one contact per number and workspace: the claim's
 * conditional put is the uniqueness check), its tag items (in the contact's collection, indexed
 * by lower-case tag for filtering) and its search entries (data/contact-search, written in the
 * same transactions as the contact). Every write is versioned (optimistic locking).
 */
export const contactKey = (ws: string, id: string) => ({ PK: `WS#${ws}#CONTACT#${id}`, SK: 'CONTACT' });
const contactListEntry = (ws: string, id?: string) => ({ GSI1PK: `WS#${ws}#CONTACTS`, ...(id && { GSI1SK: id }) });
const phoneClaimKey = (ws: string, digits: string) => ({ PK: `WS#${ws}#PHONE#${digits}`, SK: 'CONTACT_PHONE' });
/** Maps a platform user id (a customer without a phone number) to its contact, and keeps it unique. */
const userClaimKey = (ws: string, userId: string) => ({ PK: `WS#${ws}#USER#${userId}`, SK: 'CONTACT_USER' });
/** The claim also carries the contact's opt-out, so a send checks a number with one read by key. */
const phoneClaim = (ws: string, contact: Contact) => ({ ...phoneClaimKey(ws, contact.phone_number), contact_id: contact.id, opted_out_at: contact.opted_out_at });
const TAG = 'TAG#';
const tagItemKey = (ws: string, contactId: string, tag: string) => ({ PK: contactKey(ws, contactId).PK, SK: `${TAG}${tag}` });
const taggedListEntry = (ws: string, tag: string, contactId?: string) => ({ GSI1PK: `WS#${ws}#TAG#${tag}`, ...(contactId && { GSI1SK: contactId }) });

const contactItem = (ws: string, contact: Contact, version: number) => ({
  ...contactKey(ws, contact.id),
  ...contactListEntry(ws, contact.id),
  ...contact,
  version,
});

function toContact(item: Record<string, unknown>): StoredContact {
  const { id, name, phone_number, email, tags, custom_fields, opted_out_at, user_id, created_at, updated_at, version } = item as unknown as StoredContact;
  return { id, name, phone_number, email, tags, custom_fields, opted_out_at: opted_out_at ?? null, ...(user_id && { user_id }), created_at, updated_at, version };
}

export async function getContact(ws: string, id: string, consistent = false): Promise<StoredContact | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: contactKey(ws, id), ConsistentRead: consistent }));
  return Item ? toContact(Item) : undefined;
}

/** BatchGets of 100 in flight at once when reading many contacts (a large segment reads tens of thousands). */
const READ_CONCURRENCY = 8;
const BATCH_GET_KEYS = 100;

/** Contacts by id, in the order asked, missing ones left out. */
export async function contactsByIds(ws: string, ids: string[]): Promise<StoredContact[]> {
  const slices = Array.from({ length: Math.ceil(ids.length / BATCH_GET_KEYS) }, (_, i) => ids.slice(i * BATCH_GET_KEYS, (i + 1) * BATCH_GET_KEYS));
  const pages = await mapLimit(slices, READ_CONCURRENCY, (slice) => getMany(slice.map((id) => contactKey(ws, id))));
  return pages.flat().map(toContact);
}

export async function contactIdForPhone(ws: string, digits: string): Promise<string | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: phoneClaimKey(ws, digits), ConsistentRead: true }));
  return Item?.contact_id as string | undefined;
}

export async function contactIdForUser(ws: string, userId: string): Promise<string | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: userClaimKey(ws, userId), ConsistentRead: true }));
  return Item?.contact_id as string | undefined;
}

export interface PhoneOwner {
  contact_id: string;
  opted_out_at: string | null;
}

/** The contact holding each of these numbers and its opt-out, from their claims; numbers without a contact are absent. */
export async function phoneOwners(ws: string, phones: string[]): Promise<Map<string, PhoneOwner>> {
  const claims = await getMany<{ PK: string; contact_id: string; opted_out_at?: string | null }>([...new Set(phones)].map((digits) => phoneClaimKey(ws, digits)));
  const prefix = phoneClaimKey(ws, '').PK;
  return new Map(claims.map((claim) => [claim.PK.slice(prefix.length), { contact_id: claim.contact_id, opted_out_at: claim.opted_out_at ?? null }]));
}

/** Which of these numbers opted out of marketing (contract §13), from their claims. */
export async function optedOutPhones(ws: string, phones: string[]): Promise<Set<string>> {
  return new Set([...(await phoneOwners(ws, phones))].filter(([, owner]) => owner.opted_out_at).map(([phone]) => phone));
}

/** Which of these numbers already have a contact. */
export async function existingPhones(ws: string, phones: string[]): Promise<Set<string>> {
  const claims = await getMany<{ PK: string }>(phones.map((digits) => phoneClaimKey(ws, digits)));
  const prefix = phoneClaimKey(ws, '').PK;
  return new Set(claims.map((claim) => claim.PK.slice(prefix.length)));
}

/** A transaction item that holds only while the contact exists (a membership's check). */
export const contactMustExist = (ws: string, id: string): TransactItem => ({
  ConditionCheck: { TableName: tableName(), Key: contactKey(ws, id), ConditionExpression: 'attribute_exists(PK)' },
});

/** The contact's item collection beyond the contact itself: its tag, group and search items. */
async function collection(ws: string, id: string) {
  const { Items = [] } = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': contactKey(ws, id).PK },
      ConsistentRead: true,
    }),
  );
  const sortKeys = Items.map((item) => item.SK as string);
  return {
    tags: sortKeys.filter((sk) => sk.startsWith(TAG)).map((sk) => sk.slice(TAG.length)),
    groups: sortKeys.filter((sk) => sk.startsWith(CONTACT_GROUP)).map((sk) => sk.slice(CONTACT_GROUP.length)),
    searchEntries: sortKeys.filter((sk) => sk.startsWith(SEARCH_ENTRY)),
  };
}

const versionGuard = (ws: string, id: string, version: number): TransactItem => ({
  ConditionCheck: {
    TableName: tableName(),
    Key: contactKey(ws, id),
    ConditionExpression: 'version = :version',
    ExpressionAttributeValues: { ':version': version },
  },
});

function tagUnit(ws: string, contact: Contact, tag: string, change: 'add' | 'remove'): Unit {
  const key = tagItemKey(ws, contact.id, tag);
  const item: TransactItem =
    change === 'add'
      ? { Put: { TableName: tableName(), Item: { ...key, ...taggedListEntry(ws, tag, contact.id) }, ConditionExpression: 'attribute_not_exists(PK)' } }
      : { Delete: { TableName: tableName(), Key: key, ConditionExpression: 'attribute_exists(PK)' } };
  return { items: [item], counters: [{ key: counterKey(ws, counterNames.tag(tag)), delta: change === 'add' ? 1 : -1 }] };
}

/**
 * Brings the tag index in line with the contact as written at `version`. It runs after the
 * contact write and diffs against the tag items actually stored, so a write interrupted
 * half-way is repaired by the next one; every step is guarded by the version, so a newer
 * writer (which reconciles after its own write) always has the last word.
 */
async function reconcileTags(ws: string, contact: Contact, version: number): Promise<void> {
  const stored = new Set((await collection(ws, contact.id)).tags);
  const wanted = new Set(contact.tags.map(tagKey));
  const units = [
    ...[...wanted].filter((tag) => !stored.has(tag)).map((tag) => tagUnit(ws, contact, tag, 'add')),
    ...[...stored].filter((tag) => !wanted.has(tag)).map((tag) => tagUnit(ws, contact, tag, 'remove')),
  ];
  if (!units.length) return;
  try {
    await applyUnits(units, [versionGuard(ws, contact.id, version)]);
  } catch (error) {
    if (!(error instanceof GuardFailed)) throw error;
  }
}

/** A new contact's writes: phone claim, contact, search entries and its tag items (their counters are summed per transaction). */
function insertWrites(ws: string, contact: Contact, withTags: boolean): TransactItem[] {
  const create = (Item: Record<string, unknown>): TransactItem => ({ Put: { TableName: tableName(), Item, ConditionExpression: 'attribute_not_exists(PK)' } });
  return [
    // A contact has a phone claim once it has a number, a user claim when the platform knows it by a user id.
    ...(contact.phone_number ? [create(phoneClaim(ws, contact))] : []),
    ...(contact.user_id ? [create({ ...userClaimKey(ws, contact.user_id), contact_id: contact.id })] : []),
    create(contactItem(ws, contact, 1)),
    ...searchEntryPuts(ws, contactKey(ws, contact.id).PK, contact),
    ...(withTags ? contact.tags.map((tag) => create({ ...tagItemKey(ws, contact.id, tagKey(tag)), ...taggedListEntry(ws, tagKey(tag), contact.id) })) : []),
  ];
}

/** Writes and counters of new contacts packed into one transaction. */
function insertTransaction(ws: string, contacts: Contact[], withTags: boolean): TransactItem[] {
  const tagCounts = new Map<string, number>();
  if (withTags) for (const tag of contacts.flatMap((c) => c.tags.map(tagKey))) tagCounts.set(tag, (tagCounts.get(tag) ?? 0) + 1);
  return [
    ...contacts.flatMap((contact) => insertWrites(ws, contact, withTags)),
    counterMove(ws, counterNames.contacts, contacts.length),
    ...[...tagCounts].map(([tag, count]) => counterMove(ws, counterNames.tag(tag), count)),
  ];
}

/** Groups contacts greedily into transactions that fit DynamoDB's item limit (writes + one counter per distinct tag + the contact counter). */
const writesOf = (contact: Contact, tags: string[]) => 2 + (contact.user_id ? 1 : 0) + searchEntryCount(contact) + tags.length;

function pack(contacts: Contact[]): Contact[][] {
  const batches: Contact[][] = [];
  let batch: Contact[] = [];
  let writes = 0;
  let tags = new Set<string>();
  for (const contact of contacts) {
    const contactTags = contact.tags.map(tagKey);
    const newTags = contactTags.filter((tag) => !tags.has(tag)).length;
    if (batch.length && writes + writesOf(contact, contactTags) + tags.size + newTags + 1 > MAX_TRANSACTION_ITEMS) {
      batches.push(batch);
      batch = [];
      writes = 0;
      tags = new Set();
    }
    batch.push(contact);
    writes += writesOf(contact, contactTags);
    contactTags.forEach((tag) => tags.add(tag));
  }
  if (batch.length) batches.push(batch);
  return batches;
}

/**
 * Inserts new contacts, each with its phone claim and tags, in as few transactions as fit, with
 * the contact and tag counters moved in the same transactions. Returns the contacts that were not
 * inserted because their transaction met a number claimed concurrently (nothing of that
 * transaction was written): the caller upserts those one by one.
 */
export async function insertContacts(ws: string, contacts: Contact[]): Promise<Contact[]> {
  const leftovers: Contact[] = [];
  for (const batch of pack(contacts)) {
    // A contact with so many tags that it cannot fit one transaction gets its tags right after.
    const withTags = insertTransaction(ws, batch, true).length <= MAX_TRANSACTION_ITEMS;
    try {
      await transact(insertTransaction(ws, batch, withTags));
    } catch (error) {
      if (!failedConditions(error)) throw error;
      leftovers.push(...batch);
      continue;
    }
    if (!withTags) await reconcileTags(ws, batch[0], 1);
  }
  return leftovers;
}

/**
 * Writes `after` over `before` if nobody wrote in between (`stale` otherwise); moves the phone
 * claim when the number changes (`phone_taken` when another contact holds the new one).
 */
export async function replaceContact(ws: string, before: StoredContact, after: Contact): Promise<'replaced' | 'stale' | 'phone_taken'> {
  const items: TransactItem[] = [
    { Put: { TableName: tableName(), Item: contactItem(ws, after, before.version + 1), ConditionExpression: 'version = :version', ExpressionAttributeValues: { ':version': before.version } } },
  ];
  const searchChanges = searchEntryChanges(ws, contactKey(ws, after.id).PK, before, after);
  const phoneChanged = after.phone_number !== before.phone_number;
  if (phoneChanged) {
    items.push({ Put: { TableName: tableName(), Item: phoneClaim(ws, after), ConditionExpression: 'attribute_not_exists(PK)' } });
    if (before.phone_number) items.push({ Delete: { TableName: tableName(), Key: phoneClaimKey(ws, before.phone_number) } });
  } else if (after.phone_number && (after.opted_out_at ?? null) !== (before.opted_out_at ?? null)) {
    items.push({ Put: { TableName: tableName(), Item: phoneClaim(ws, after) } });
  }
  try {
    await transact([...items, ...searchChanges]);
  } catch (error) {
    const failed = failedConditions(error);
    if (!failed) throw error;
    return phoneChanged && failed.includes(1) ? 'phone_taken' : 'stale';
  }
  await reconcileTags(ws, after, before.version + 1);
  return 'replaced';
}

/**
 * Leaves the contact's groups and tags (each step idempotent and counted), then deletes the
 * contact and its phone claim. False when the contact changed meanwhile (read it again).
 * Interrupted, it leaves a contact with fewer tags or groups, which a repeat finishes.
 */
export async function deleteContactRecords(ws: string, contact: StoredContact): Promise<boolean> {
  const { tags, groups, searchEntries } = await collection(ws, contact.id);
  const units: Unit[] = [...tags.map((tag) => tagUnit(ws, contact, tag, 'remove')), ...groups.map((groupId) => leaveUnit(ws, groupId, contact.id, 'contact'))];
  try {
    await applyUnits(units, [versionGuard(ws, contact.id, contact.version)]);
    await transact([
      { Delete: { TableName: tableName(), Key: contactKey(ws, contact.id), ConditionExpression: 'version = :version', ExpressionAttributeValues: { ':version': contact.version } } },
      ...(contact.phone_number ? [{ Delete: { TableName: tableName(), Key: phoneClaimKey(ws, contact.phone_number) } }] : []),
      ...(contact.user_id ? [{ Delete: { TableName: tableName(), Key: userClaimKey(ws, contact.user_id) } }] : []),
      counterMove(ws, counterNames.contacts, -1),
      ...searchEntryDeletes(contactKey(ws, contact.id).PK, searchEntries),
    ]);
    return true;
  } catch (error) {
    if (error instanceof GuardFailed || failedConditions(error)) return false;
    throw error;
  }
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

/** A page of the workspace's contacts, newest first, with the exact count. */
export async function contactsPage(ws: string, page: number, pageSize: number): Promise<{ contacts: Contact[]; total: number }> {
  const [items, total] = await Promise.all([queryPage<Record<string, unknown>>(children(contactListEntry(ws).GSI1PK), page, pageSize), readListCount(ws, counterNames.contacts)]);
  return { contacts: items.map(toContact), total };
}

/** A page of the contacts carrying a tag (its index form), with the exact count from the tag's counter. */
export async function taggedPage(ws: string, tag: string, page: number, pageSize: number): Promise<{ contacts: Contact[]; total: number }> {
  const [members, total] = await Promise.all([
    queryPage<{ GSI1SK: string }>(children(taggedListEntry(ws, tag).GSI1PK), page, pageSize),
    readListCount(ws, counterNames.tag(tag)),
  ]);
  return { contacts: await contactsByIds(ws, members.map((member) => member.GSI1SK)), total };
}

/** The ids of every contact carrying a tag (its index form), newest first: index entries only, no contact read. */
export async function taggedContactIds(ws: string, tag: string): Promise<string[]> {
  const members = await queryAll<{ GSI1SK: string }>({ ...children(taggedListEntry(ws, tag).GSI1PK), ProjectionExpression: 'GSI1SK' });
  return members.map((member) => member.GSI1SK);
}

/**
 * Every contact whose custom fields equal all of these (same type and value), newest first.
 * DynamoDB filters, but reads (and bills) the whole contact book.
 */
export async function contactsWithCustomFields(ws: string, fields: Record<string, CustomFieldValue>): Promise<StoredContact[]> {
  const entries = Object.entries(fields);
  const { ExpressionAttributeValues, ...query } = children(contactListEntry(ws).GSI1PK);
  const items = await queryAll<Record<string, unknown>>({
    ...query,
    FilterExpression: entries.map((_, i) => `#fields.#f${i} = :f${i}`).join(' AND '),
    ExpressionAttributeNames: { '#fields': 'custom_fields', ...Object.fromEntries(entries.map(([name], i) => [`#f${i}`, name])) },
    ExpressionAttributeValues: { ...ExpressionAttributeValues, ...Object.fromEntries(entries.map(([, value], i) => [`:f${i}`, value])) },
  });
  return items.map(toContact);
}

/** Which of these contacts carry a tag (its index form), from their tag items. */
export async function contactsCarrying(ws: string, tag: string, ids: string[]): Promise<Set<string>> {
  const slices = Array.from({ length: Math.ceil(ids.length / BATCH_GET_KEYS) }, (_, i) => ids.slice(i * BATCH_GET_KEYS, (i + 1) * BATCH_GET_KEYS));
  const found = await mapLimit(slices, READ_CONCURRENCY, (slice) => getMany<{ PK: string }>(slice.map((id) => tagItemKey(ws, id, tag))));
  const prefix = contactKey(ws, '').PK;
  return new Set(found.flat().map((item) => item.PK.slice(prefix.length)));
}
