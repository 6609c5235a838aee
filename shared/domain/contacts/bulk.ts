import { mapLimit } from '#shared/concurrency';
import { newContact, type ContactChanges } from '#shared/domain/contacts/contact';
import type { Contact } from '#shared/records/contact';
import { existingPhones } from '#shared/data/contact-claims';
import { insertContacts } from '#shared/data/contact-insert';
import { upsertContact } from '#shared/domain/contacts/lifecycle';
import { newId } from '#shared/ids';
import { isDomainError } from '#shared/errors';
import { nowIso } from '#shared/time';

interface ItemError {
  index: number;
  phone: string | null;
  code: string;
  message: string;
}

interface Accepted {
  index: number;
  phone: string;
  changes: ContactChanges;
}

/**
 * One item of an import, read on its own by the caller (so a bad item fails alone): its number
 * as digits and what it says of the contact, or why it cannot be taken (`phone` as given, if any).
 */
export type ImportItem = { phone: string; changes: ContactChanges } | { phone: string | null; invalid: string };

const UPDATE_CONCURRENCY = 16;

/**
 * Imports up to 500 contacts: new numbers are inserted in packed transactions (contact, phone
 * claim, tags and counters together), existing ones updated with the single-contact rules.
 * Results keep the request's order.
 */
export async function importContacts(ws: string, items: ImportItem[]) {
  const errors: ItemError[] = [];
  const accepted: Accepted[] = [];
  const seen = new Set<string>();
  items.forEach((item, index) => {
    if ('invalid' in item) return errors.push({ index, phone: item.phone, code: 'validation_error', message: item.invalid });
    if (seen.has(item.phone)) {
      return errors.push({ index, phone: item.phone, code: 'duplicate_in_request', message: 'This phone number appears earlier in the request' });
    }
    seen.add(item.phone);
    accepted.push({ index, phone: item.phone, changes: item.changes });
  });

  const existing = await existingPhones(
    ws,
    accepted.map((item) => item.phone),
  );
  const results = new Map<number, { contact: Contact; created: boolean }>();
  const now = nowIso();
  const fresh = accepted.filter((item) => !existing.has(item.phone)).map((item) => ({ item, contact: newContact(newId(), item.phone, item.changes, now) }));
  const updates = accepted.filter((item) => existing.has(item.phone));

  const notInserted = new Set(
    await insertContacts(
      ws,
      fresh.map((entry) => entry.contact),
    ),
  );
  for (const { item, contact } of fresh) {
    if (notInserted.has(contact))
      updates.push(item); // its number was claimed meanwhile: take the one-by-one path
    else results.set(item.index, { contact, created: true });
  }
  await mapLimit(updates, UPDATE_CONCURRENCY, async (item) => {
    try {
      results.set(item.index, await upsertContact(ws, item.phone, item.changes));
    } catch (error) {
      // A refusal of one item (a contact changing concurrently, too many custom fields) fails that item only.
      if (!isDomainError(error)) throw error;
      errors.push({
        index: item.index,
        phone: item.phone,
        code: error.code,
        message: error.details?.map((d) => `${d.field}: ${d.message}`).join('; ') || error.message,
      });
    }
  });

  const contacts = [...results.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, { contact, created }]) => ({ id: contact.id, name: contact.name, phone_number: contact.phone_number, created }));
  return {
    total_submitted: items.length,
    processed_count: contacts.length,
    failed_count: errors.length,
    contacts,
    errors: errors.sort((a, b) => a.index - b.index),
  };
}
