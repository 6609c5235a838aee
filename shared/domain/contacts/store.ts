import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#shared/data/table/client';
import { counterNames, keys } from '#shared/data/keys';
import { getMany } from '#shared/data/table/pages';
import { failedConditions, MAX_TRANSACTION_ITEMS, transact, type TransactItem } from '#shared/data/table/transact';
import { applyUnits, GuardFailed, type Unit } from '#shared/data/table/units';
import { errors } from '#shared/errors';
import { newId } from '#shared/ids';
import { nowIso } from '#shared/time';
import { applyChanges, newContact, tagKey, type Contact, type ContactChanges, type StoredContact } from '#shared/domain/contacts/contact';

/** Concurrent writers of one contact retry this often before giving up with 409. */
const MAX_ATTEMPTS = 8;

const contactItem = (ws: string, contact: Contact, version: number) => ({
  ...keys.contact(ws, contact.id),
  ...keys.contactList(ws, contact.id),
  ...contact,
  name_lc: contact.name?.toLowerCase() ?? null,
  version,
});

function toContact(item: Record<string, unknown>): StoredContact {
  const { id, name, phone_number, email, tags, custom_fields, created_at, updated_at, version } = item as unknown as StoredContact;
  return { id, name, phone_number, email, tags, custom_fields, created_at, updated_at, version };
}

export async function getContact(ws: string, id: string, consistent = false): Promise<StoredContact | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.contact(ws, id), ConsistentRead: consistent }));
  return Item ? toContact(Item) : undefined;
}

async function contactIdForPhone(ws: string, digits: string): Promise<string | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.contactPhone(ws, digits), ConsistentRead: true }));
  return Item?.contact_id as string | undefined;
}

/** Which of these numbers already have a contact. */
export async function existingPhones(ws: string, phones: string[]): Promise<Set<string>> {
  const claims = await getMany<{ PK: string }>(phones.map((digits) => keys.contactPhone(ws, digits)));
  const prefix = keys.contactPhone(ws, '').PK;
  return new Set(claims.map((claim) => claim.PK.slice(prefix.length)));
}

/** The contact's item collection beyond the contact itself: its tag and group items. */
async function collection(ws: string, id: string) {
  const { Items = [] } = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': keys.contact(ws, id).PK },
      ConsistentRead: true,
    }),
  );
  return {
    tags: Items.filter((item) => (item.SK as string).startsWith('TAG#')).map((item) => (item.SK as string).slice(4)),
    groups: Items.filter((item) => (item.SK as string).startsWith('GROUP#')).map((item) => (item.SK as string).slice(6)),
  };
}

const versionGuard = (ws: string, id: string, version: number): TransactItem => ({
  ConditionCheck: {
    TableName: tableName(),
    Key: keys.contact(ws, id),
    ConditionExpression: 'version = :version',
    ExpressionAttributeValues: { ':version': version },
  },
});

function tagUnit(ws: string, contact: Contact, tag: string, change: 'add' | 'remove'): Unit {
  const key = keys.contactTag(ws, contact.id, tag);
  const item: TransactItem =
    change === 'add'
      ? { Put: { TableName: tableName(), Item: { ...key, ...keys.taggedList(ws, tag, contact.id) }, ConditionExpression: 'attribute_not_exists(PK)' } }
      : { Delete: { TableName: tableName(), Key: key, ConditionExpression: 'attribute_exists(PK)' } };
  return { items: [item], counters: [{ key: keys.counter(ws, counterNames.tag(tag)), delta: change === 'add' ? 1 : -1 }] };
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

const counterAdd = (ws: string, name: string, delta: number): TransactItem => ({
  Update: { TableName: tableName(), Key: keys.counter(ws, name), UpdateExpression: 'ADD #count :delta', ExpressionAttributeNames: { '#count': 'count' }, ExpressionAttributeValues: { ':delta': delta } },
});

/** A new contact's writes: phone claim, contact, and its tag items (their counters are summed per transaction). */
function insertWrites(ws: string, contact: Contact, withTags: boolean): TransactItem[] {
  const create = (Item: Record<string, unknown>): TransactItem => ({ Put: { TableName: tableName(), Item, ConditionExpression: 'attribute_not_exists(PK)' } });
  return [
    create({ ...keys.contactPhone(ws, contact.phone_number), contact_id: contact.id }),
    create(contactItem(ws, contact, 1)),
    ...(withTags ? contact.tags.map((tag) => create({ ...keys.contactTag(ws, contact.id, tagKey(tag)), ...keys.taggedList(ws, tagKey(tag), contact.id) })) : []),
  ];
}

/** Writes and counters of new contacts packed into one transaction. */
function insertTransaction(ws: string, contacts: Contact[], withTags: boolean): TransactItem[] {
  const tagCounts = new Map<string, number>();
  if (withTags) for (const tag of contacts.flatMap((c) => c.tags.map(tagKey))) tagCounts.set(tag, (tagCounts.get(tag) ?? 0) + 1);
  return [
    ...contacts.flatMap((contact) => insertWrites(ws, contact, withTags)),
    counterAdd(ws, counterNames.contacts, contacts.length),
    ...[...tagCounts].map(([tag, count]) => counterAdd(ws, counterNames.tag(tag), count)),
  ];
}

/** Groups contacts greedily into transactions that fit DynamoDB's item limit (writes + one counter per distinct tag + the contact counter). */
function pack(contacts: Contact[]): Contact[][] {
  const batches: Contact[][] = [];
  let batch: Contact[] = [];
  let writes = 0;
  let tags = new Set<string>();
  for (const contact of contacts) {
    const contactTags = contact.tags.map(tagKey);
    const newTags = contactTags.filter((tag) => !tags.has(tag)).length;
    if (batch.length && writes + 2 + contactTags.length + tags.size + newTags + 1 > MAX_TRANSACTION_ITEMS) {
      batches.push(batch);
      batch = [];
      writes = 0;
      tags = new Set();
    }
    batch.push(contact);
    writes += 2 + contactTags.length;
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

/** Writes `after` over `before` if nobody wrote in between; moves the phone claim when the number changes. */
async function replace(ws: string, before: StoredContact, after: Contact): Promise<boolean> {
  const items: TransactItem[] = [
    { Put: { TableName: tableName(), Item: contactItem(ws, after, before.version + 1), ConditionExpression: 'version = :version', ExpressionAttributeValues: { ':version': before.version } } },
  ];
  const phoneChanged = after.phone_number !== before.phone_number;
  if (phoneChanged) {
    items.push(
      { Put: { TableName: tableName(), Item: { ...keys.contactPhone(ws, after.phone_number), contact_id: after.id }, ConditionExpression: 'attribute_not_exists(PK)' } },
      { Delete: { TableName: tableName(), Key: keys.contactPhone(ws, before.phone_number) } },
    );
  }
  try {
    await transact(items);
  } catch (error) {
    const failed = failedConditions(error);
    if (!failed) throw error;
    if (phoneChanged && failed.includes(1)) throw errors.invalidState('Another contact already has this phone number');
    return false;
  }
  await reconcileTags(ws, after, before.version + 1);
  return true;
}

/** Creates the contact of this phone number, or updates it: one contact per number, whatever the concurrency. */
export async function upsertContact(ws: string, phone: string, changes: ContactChanges): Promise<{ contact: Contact; created: boolean }> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const now = nowIso();
    const existingId = await contactIdForPhone(ws, phone);
    if (!existingId) {
      const contact = newContact(newId(), phone, changes, now);
      if (!(await insertContacts(ws, [contact])).length) return { contact, created: true };
      continue; // the number was claimed concurrently: update that contact instead
    }
    const before = await getContact(ws, existingId, true);
    if (!before) continue; // deleted in between
    const after = applyChanges(before, { ...changes, phone_number: phone }, now);
    if (await replace(ws, before, after)) return { contact: after, created: false };
  }
  throw errors.invalidState('The contact is being changed by other requests at the same time; retry');
}

export async function updateContact(ws: string, id: string, changes: ContactChanges): Promise<Contact> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const before = await getContact(ws, id, true);
    if (!before) throw errors.notFound('Contact');
    const after = applyChanges(before, changes, nowIso());
    if (await replace(ws, before, after)) return after;
  }
  throw errors.invalidState('The contact is being changed by other requests at the same time; retry');
}

/**
 * Leaves the contact's groups and tags (each step idempotent and counted), then deletes the
 * contact and its phone claim. Interrupted, it leaves a contact with fewer tags or groups,
 * which a repeated DELETE finishes.
 */
export async function deleteContact(ws: string, id: string): Promise<Contact> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const contact = await getContact(ws, id, true);
    if (!contact) throw errors.notFound('Contact');
    const { tags, groups } = await collection(ws, id);
    const units: Unit[] = [
      ...tags.map((tag) => tagUnit(ws, contact, tag, 'remove')),
      ...groups.map((groupId) => ({
        items: [
          { Delete: { TableName: tableName(), Key: keys.contactGroup(ws, id, groupId), ConditionExpression: 'attribute_exists(PK)' } },
          { Delete: { TableName: tableName(), Key: keys.groupMember(ws, groupId, id) } },
        ],
        counters: [{ key: keys.group(ws, groupId), delta: -1, mustExist: true }],
      })),
    ];
    try {
      await applyUnits(units, [versionGuard(ws, id, contact.version)]);
      await transact([
        { Delete: { TableName: tableName(), Key: keys.contact(ws, id), ConditionExpression: 'version = :version', ExpressionAttributeValues: { ':version': contact.version } } },
        { Delete: { TableName: tableName(), Key: keys.contactPhone(ws, contact.phone_number) } },
        { Update: { TableName: tableName(), Key: keys.counter(ws, counterNames.contacts), UpdateExpression: 'ADD #count :minusOne', ExpressionAttributeNames: { '#count': 'count' }, ExpressionAttributeValues: { ':minusOne': -1 } } },
      ]);
      return contact;
    } catch (error) {
      if (!(error instanceof GuardFailed) && !failedConditions(error)) throw error;
    }
  }
  throw errors.invalidState('The contact is being changed by other requests at the same time; retry');
}
