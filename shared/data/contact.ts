import { GetCommand } from '#shared/data/table/commands';
import { db, tableName } from '#shared/data/table/client';
import { getMany } from '#shared/data/table/pages';
import { streamItemOf, workspaceInKey, type StreamImage } from '#shared/data/table/stream-image';
import type { TransactItem } from '#shared/data/table/transact';
import { mapLimit } from '#shared/concurrency';
import { contactFields, type Contact, type StoredContact } from '#shared/records/contact';
import { STREAMED_SORT_KEYS } from '#shared/data/table/stream-filters';

const CONTACT = STREAMED_SORT_KEYS.contact;

/**
 * A contact, its phone-number claim (one contact per number and workspace: the claim's
 * conditional put is the uniqueness check), its tag items (in the contact's collection, indexed
 * by lower-case tag for filtering) and its search entries (data/contact-search, written from the
 * table's stream after the contact). Every write is versioned (optimistic locking). The keys of
 * them all are here; the claims are read in contact-claims.ts, written with the contact in
 * contact-writes.ts and contact-insert.ts; lists are in contact-list.ts.
 */
export const contactKey = (ws: string, id: string) => ({ PK: `WS#${ws}#CONTACT#${id}`, SK: CONTACT });
export const contactListEntry = (ws: string, id?: string) => ({ GSI1PK: `WS#${ws}#CONTACTS`, ...(id && { GSI1SK: id }) });
export const phoneClaimKey = (ws: string, digits: string) => ({ PK: `WS#${ws}#PHONE#${digits}`, SK: 'CONTACT_PHONE' });
/** Maps a platform user id (a customer without a phone number) to its contact, and keeps it unique. */
export const userClaimKey = (ws: string, userId: string) => ({ PK: `WS#${ws}#USER#${userId}`, SK: 'CONTACT_USER' });
/** The claim also carries the contact's opt-out, so a send checks a number with one read by key. */
export const phoneClaim = (ws: string, contact: Contact) => ({
  ...phoneClaimKey(ws, contact.phone_number),
  contact_id: contact.id,
  opted_out_at: contact.opted_out_at,
});
/** Like the phone claim, the user claim carries the opt-out (since issue 26; older claims have no `opted_out_at`). */
export const userClaim = (ws: string, contact: Contact) => ({
  ...userClaimKey(ws, contact.user_id!),
  contact_id: contact.id,
  opted_out_at: contact.opted_out_at,
});
/** A user id the platform replaced, still leading to its contact; without an opt-out of its own, readers take the contact's (`optedOutUsers`). */
export const previousUserClaim = (ws: string, userId: string, contactId: string) => ({ ...userClaimKey(ws, userId), contact_id: contactId });
export const TAG = 'TAG#';
export const tagItemKey = (ws: string, contactId: string, tag: string) => ({ PK: contactKey(ws, contactId).PK, SK: `${TAG}${tag}` });
export const taggedListEntry = (ws: string, tag: string, contactId?: string) => ({ GSI1PK: `WS#${ws}#TAG#${tag}`, ...(contactId && { GSI1SK: contactId }) });

export const contactItem = (ws: string, contact: Contact, version: number) => ({
  ...contactKey(ws, contact.id),
  ...contactListEntry(ws, contact.id),
  ...contact,
  version,
});

export function toContact(item: Record<string, unknown>): StoredContact {
  const stored = item as unknown as StoredContact;
  return { ...contactFields(stored), ...(stored.previous_user_ids && { previous_user_ids: stored.previous_user_ids }), version: stored.version };
}

export async function getContact(ws: string, id: string, consistent = false): Promise<StoredContact | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: contactKey(ws, id), ConsistentRead: consistent }));
  return Item ? toContact(Item) : undefined;
}

/** The contact a table stream image holds, with its workspace (from the key: the item has none), or undefined when the image is another record's. */
export function contactFromStreamImage(image: StreamImage | undefined): { workspace_id: string; contact: StoredContact } | undefined {
  const item = streamItemOf(image, (key) => key.SK === CONTACT);
  return item && { workspace_id: workspaceInKey(item), contact: toContact(item) };
}

/** BatchGets of 100 in flight at once when reading many contacts (a large segment reads tens of thousands). */
export const READ_CONCURRENCY = 8;
export const BATCH_GET_KEYS = 100;

/** Contacts by id, in the order asked, missing ones left out. */
export async function contactsByIds(ws: string, ids: string[]): Promise<StoredContact[]> {
  const slices = Array.from({ length: Math.ceil(ids.length / BATCH_GET_KEYS) }, (_, i) => ids.slice(i * BATCH_GET_KEYS, (i + 1) * BATCH_GET_KEYS));
  const pages = await mapLimit(slices, READ_CONCURRENCY, (slice) => getMany(slice.map((id) => contactKey(ws, id))));
  return pages.flat().map(toContact);
}

/** A transaction item that holds only while the contact exists (a membership's check). */
export const contactMustExist = (ws: string, id: string): TransactItem => ({
  ConditionCheck: { TableName: tableName(), Key: contactKey(ws, id), ConditionExpression: 'attribute_exists(PK)' },
});
