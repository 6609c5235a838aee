import { contactIdForPhone, contactIdForUser } from '#shared/data/contact-claims';
import { deleteContactRecords, replaceContact } from '#shared/data/contact-writes';
import { getContact } from '#shared/data/contact';
import { insertContacts } from '#shared/data/contact-insert';
import { errors } from '#shared/errors';
import { newId } from '#shared/ids';
import { nowIso } from '#shared/time';
import { applyChanges, newContact, type ContactChanges } from '#shared/domain/contacts/contact';
import type { Contact, StoredContact } from '#shared/records/contact';

/** Concurrent writers of one contact retry this often before giving up with 409. */
const MAX_ATTEMPTS = 8;

const busy = () => errors.invalidState('The contact is being changed by other requests at the same time; retry');

export async function requireContact(ws: string, id: string, consistent = false): Promise<StoredContact> {
  const contact = await getContact(ws, id, consistent);
  if (!contact) throw errors.notFound('Contact');
  return contact;
}

/** Writes the change unless someone wrote in between; a number held by another contact is 409. */
async function replace(ws: string, before: StoredContact, after: Contact): Promise<boolean> {
  const outcome = await replaceContact(ws, before, after);
  if (outcome === 'phone_taken') throw errors.invalidState('Another contact already has this phone number');
  return outcome === 'replaced';
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
  throw busy();
}

export async function updateContact(ws: string, id: string, changes: ContactChanges): Promise<Contact> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const before = await requireContact(ws, id, true);
    const after = applyChanges(before, changes, nowIso());
    if (await replace(ws, before, after)) return after;
  }
  throw busy();
}

/** Deletes the contact with its tags and memberships (contract §7: it leaves its groups). */
export async function deleteContact(ws: string, id: string): Promise<Contact> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const contact = await requireContact(ws, id, true);
    if (await deleteContactRecords(ws, contact)) return contact;
  }
  throw busy();
}

/** Who wrote in: their number, their business-scoped user id, or both as the platform reported them together (at least one). */
export interface SenderIdentity {
  phone?: string;
  userId?: string;
}

/**
 * The contact of a customer who wrote in: created when the number and user id are new, named from
 * the platform profile while it has no name, opted out when the message was a stop word. A number
 * and a user id reported together are merged onto one contact (contract §21): the user id is
 * added to the number's contact, or the number to the user id's contact, unless another contact
 * already holds it (then the number's contact is the customer's, and the other keeps its history).
 * Written only when something changes, so a conversation does not rewrite (and announce) the
 * contact on every message.
 */
export async function contactOfSender(ws: string, who: SenderIdentity, sender: { profileName?: string; optOut: boolean }): Promise<Contact> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const now = nowIso();
    const [byPhone, byUser] = await Promise.all([
      who.phone ? contactIdForPhone(ws, who.phone) : undefined,
      who.userId ? contactIdForUser(ws, who.userId) : undefined,
    ]);
    const existingId = byPhone ?? byUser;
    const before = existingId ? await getContact(ws, existingId, true) : undefined;
    if (existingId && !before) continue; // deleted in between
    const changes: ContactChanges = {
      ...(sender.profileName && !before?.name && { name: sender.profileName }),
      ...(sender.optOut && !before?.opted_out_at && { opted_out: true }),
      ...(who.phone && before && !before.phone_number && !byPhone && { phone_number: who.phone }),
    };
    if (!before) {
      const contact = newContact(newId(), who.phone ?? '', changes, now, who.userId);
      if (!(await insertContacts(ws, [contact])).length) return contact;
      continue; // claimed concurrently
    }
    const addUser = who.userId !== undefined && !before.user_id && !byUser;
    if (!Object.keys(changes).length && !addUser) return before;
    const after = { ...applyChanges(before, changes, now), ...(addUser && { user_id: who.userId }) };
    if (await replace(ws, before, after)) return after;
  }
  throw busy();
}

/** A customer's new number or business-scoped user id, each with the old one it replaces (null: the old user id was not named). */
export interface IdentityMove {
  number?: { from: string; to: string };
  userId?: { from: string | null; to: string };
}

/** How many replaced user ids a contact keeps (each with its claim): a customer changes number a handful of times at most. */
const MAX_PREVIOUS_USER_IDS = 10;

/**
 * The customer now writes from another number or under another user id (the platform's `system`
 * message): their contact, found by the old number or else the old user id, moves with them. A new
 * number or user id that another contact holds already stays with that contact (it has its own
 * history), and this one keeps the old value. The user id moves only from the contact's current one
 * (or when the platform named none); the replaced id stays among the contact's previous ones. A
 * change naming one of those (a late or repeated report of an earlier change) changes nothing, nor
 * does a repeat.
 */
export async function moveContactIdentity(ws: string, move: IdentityMove): Promise<void> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const [byOldPhone, byOldUser, byNewPhone, byNewUser] = await Promise.all([
      move.number && contactIdForPhone(ws, move.number.from),
      move.userId?.from ? contactIdForUser(ws, move.userId.from) : undefined,
      move.number && contactIdForPhone(ws, move.number.to),
      move.userId && contactIdForUser(ws, move.userId.to),
    ]);
    const id = byOldPhone ?? byOldUser;
    const before = id && (await getContact(ws, id, true));
    if (!before) return;
    const replaced = new Set(before.previous_user_ids);
    if (move.userId && (replaced.has(move.userId.from ?? '') || replaced.has(move.userId.to))) return;
    const phone = move.number && !byNewPhone ? move.number.to : before.phone_number;
    const fromCurrent = !before.user_id || !move.userId?.from || move.userId.from === before.user_id;
    const userId = move.userId && fromCurrent && !byNewUser ? move.userId.to : before.user_id;
    if (phone === before.phone_number && userId === before.user_id) return;
    const previous = userId !== before.user_id && before.user_id ? [...replaced, before.user_id].slice(-MAX_PREVIOUS_USER_IDS) : undefined;
    const after = {
      ...applyChanges(before, { phone_number: phone }, nowIso()),
      ...(userId && { user_id: userId }),
      ...(previous && { previous_user_ids: previous }),
    };
    // Lost to a concurrent writer, or the new number or id claimed meanwhile: read again.
    if ((await replaceContact(ws, before, after)) === 'replaced') return;
  }
  throw busy();
}
