import { tableName } from '#shared/data/table/client';
import { failedConditions, MAX_TRANSACTION_ITEMS, transact, type TransactItem } from '#shared/data/table/transact';
import { contactItem, phoneClaim, tagItemKey, taggedListEntry, userClaim } from '#shared/data/contact';
import { reconcileTags } from '#shared/data/contact-writes';
import { counterMove, counterNames } from '#shared/data/counter';
import { tagKey, type Contact } from '#shared/records/contact';

/* New contacts (a bulk import's): packed into as few transactions as DynamoDB's item limit allows. */

/** A new contact's writes: phone claim, contact and its tag items (their counters are summed per transaction). */
function insertWrites(ws: string, contact: Contact, withTags: boolean): TransactItem[] {
  const create = (Item: Record<string, unknown>): TransactItem => ({ Put: { TableName: tableName(), Item, ConditionExpression: 'attribute_not_exists(PK)' } });
  return [
    // A contact has a phone claim once it has a number, a user claim when the platform knows it by a user id.
    ...(contact.phone_number ? [create(phoneClaim(ws, contact))] : []),
    ...(contact.user_id ? [create(userClaim(ws, contact))] : []),
    create(contactItem(ws, contact, 1)),
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
const writesOf = (contact: Contact, tags: string[]) => 2 + (contact.user_id ? 1 : 0) + tags.length;

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
