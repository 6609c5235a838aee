import * as v from 'valibot';
import { mapLimit } from '#shared/concurrency';
import { newContact, type ContactChanges } from '#shared/domain/contacts/contact';
import type { Contact } from '#shared/records/contact';
import { bulkContactItem } from '#shared/schemas/contacts';
import { existingPhones } from '#shared/data/contact-claims';
import { insertContacts } from '#shared/data/contact-insert';
import { upsertContact } from '#shared/domain/contacts/lifecycle';
import { newId } from '#shared/ids';
import { DomainError } from '#shared/errors';
import { normalizePhone } from '#shared/phone';
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

const UPDATE_CONCURRENCY = 16;

/** Validates one item on its own, so a bad item fails alone. */
function accept(item: unknown, index: number): Accepted | ItemError {
  const rawPhone = (item as { phone?: unknown; phone_number?: unknown } | null)?.phone ?? (item as { phone_number?: unknown } | null)?.phone_number;
  const phoneText = typeof rawPhone === 'string' ? rawPhone : null;
  const parsed = v.safeParse(bulkContactItem, item, { abortEarly: false });
  if (!parsed.success) {
    const message = parsed.issues.map((issue) => `${v.getDotPath(issue) ?? 'item'}: ${issue.message}`).join('; ');
    return { index, phone: phoneText, code: 'validation_error', message };
  }
  const { phone, phone_number, ...changes } = parsed.output;
  const given = phone ?? phone_number;
  if (given === undefined) return { index, phone: null, code: 'validation_error', message: 'phone: Required' };
  const digits = normalizePhone(given);
  if (!digits) return { index, phone: given, code: 'validation_error', message: 'phone: Invalid phone number' };
  return { index, phone: digits, changes };
}

/**
 * Imports up to 500 contacts: new numbers are inserted in packed transactions (contact, phone
 * claim, tags and counters together), existing ones updated with the single-contact rules.
 * Results keep the request's order.
 */
export async function importContacts(ws: string, items: unknown[]) {
  const errors: ItemError[] = [];
  const accepted: Accepted[] = [];
  const seen = new Set<string>();
  items.forEach((item, index) => {
    const result = accept(item, index);
    if ('code' in result) return errors.push(result);
    if (seen.has(result.phone)) {
      return errors.push({ index, phone: result.phone, code: 'duplicate_in_request', message: 'This phone number appears earlier in the request' });
    }
    seen.add(result.phone);
    accepted.push(result);
  });

  const existing = await existingPhones(ws, accepted.map((item) => item.phone));
  const results = new Map<number, { contact: Contact; created: boolean }>();
  const now = nowIso();
  const fresh = accepted.filter((item) => !existing.has(item.phone)).map((item) => ({ item, contact: newContact(newId(), item.phone, item.changes, now) }));
  const updates = accepted.filter((item) => existing.has(item.phone));

  const notInserted = new Set(await insertContacts(ws, fresh.map((entry) => entry.contact)));
  for (const { item, contact } of fresh) {
    if (notInserted.has(contact)) updates.push(item); // its number was claimed meanwhile: take the one-by-one path
    else results.set(item.index, { contact, created: true });
  }
  await mapLimit(updates, UPDATE_CONCURRENCY, async (item) => {
    try {
      results.set(item.index, await upsertContact(ws, item.phone, item.changes));
    } catch (error) {
      // A refusal of one item (a contact changing concurrently, too many custom fields) fails that item only.
      if (!(error instanceof DomainError)) throw error;
      errors.push({ index: item.index, phone: item.phone, code: error.code, message: error.details?.map((d) => `${d.field}: ${d.message}`).join('; ') || error.message });
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
