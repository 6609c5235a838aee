/** The pure rules for changing a contact (contract section 7); the record is shared/records/contact.ts. */
import { errors } from '#shared/errors';
import { contactFields, tagKey, type Contact, type CustomFieldValue } from '#shared/records/contact';

/** What a create, upsert or PATCH may say; an absent field is left as it is. */
export interface ContactChanges {
  phone_number?: string;
  name?: string | null;
  email?: string | null;
  tags?: string[];
  /** Merged key by key; `null` deletes the key. */
  custom_fields?: Record<string, CustomFieldValue | null>;
  /** `true` opts the contact out (an existing opt-out keeps its time), `false` clears it. */
  opted_out?: boolean;
  /** Where a new contact comes from (contract §23); an existing contact keeps its own. */
  source?: Contact['source'];
}

/** Trimmed and de-duplicated case-insensitively, the first spelling kept. */
export function normalizeTags(tags: string[]): string[] {
  const seen = new Set<string>();
  const result: string[] = [];
  for (const tag of tags.map((t) => t.trim())) {
    if (seen.has(tagKey(tag))) continue;
    seen.add(tagKey(tag));
    result.push(tag);
  }
  return result;
}

/** Custom fields a contact may hold in all, so a contact stays far below DynamoDB's item size limit. */
export const MAX_CUSTOM_FIELDS = 100;

export function applyChanges(current: Contact, changes: ContactChanges, now: string): Contact {
  const custom_fields = { ...current.custom_fields };
  for (const [key, value] of Object.entries(changes.custom_fields ?? {})) {
    if (value === null) delete custom_fields[key];
    else custom_fields[key] = value;
  }
  if (Object.keys(custom_fields).length > MAX_CUSTOM_FIELDS) {
    throw errors.validation([{ field: 'custom_fields', message: `A contact holds at most ${MAX_CUSTOM_FIELDS} custom fields` }]);
  }
  return {
    ...current,
    ...(changes.phone_number !== undefined && { phone_number: changes.phone_number }),
    ...(changes.name !== undefined && { name: changes.name }),
    ...(changes.email !== undefined && { email: changes.email }),
    ...(changes.tags !== undefined && { tags: normalizeTags(changes.tags) }),
    ...(changes.opted_out !== undefined && { opted_out_at: changes.opted_out ? (current.opted_out_at ?? now) : null }),
    custom_fields,
    updated_at: now,
  };
}

export function newContact(id: string, phone_number: string, changes: ContactChanges, now: string, user_id?: string): Contact {
  const blank: Contact = {
    id,
    name: null,
    phone_number,
    email: null,
    tags: [],
    custom_fields: {},
    opted_out_at: null,
    ...(user_id && { user_id }),
    ...(changes.source && { source: changes.source }),
    created_at: now,
    updated_at: now,
  };
  return applyChanges(blank, changes, now);
}

/** What clients see of a contact: its own fields, without the stored version. */
export const publicContact = contactFields;
