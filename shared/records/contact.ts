/** The contact record (contract section 7). */
export type CustomFieldValue = string | number | boolean;

export interface Contact {
  id: string;
  name: string | null;
  phone_number: string;
  email: string | null;
  tags: string[];
  custom_fields: Record<string, CustomFieldValue>;
  /** When the customer opted out of marketing (a stop word, or set through the API); null while subscribed. */
  opted_out_at: string | null;
  /**
   * The platform's business-scoped user id, for a customer who wrote without a phone number
   * (usernames); such a contact's `phone_number` is empty until one is set.
   */
  user_id?: string;
  /**
   * User ids the platform has since replaced (a `system` message), oldest first: each keeps a claim
   * on this contact, so a late message under one still finds the customer. Not shown to clients.
   */
  previous_user_ids?: string[];
  /** `business_app`: created from the WhatsApp Business app's contacts on a coexistence number (contract §23). */
  source?: 'business_app';
  created_at: string;
  updated_at: string;
}

/** Stored alongside the contact: its write version (optimistic locking). */
export interface StoredContact extends Contact {
  version: number;
}

/**
 * A contact's own fields and nothing else (no keys, no version), in the record's order: what is
 * read from a stored item and what clients see.
 */
export const contactFields = ({
  id,
  name,
  phone_number,
  email,
  tags,
  custom_fields,
  opted_out_at,
  user_id,
  source,
  created_at,
  updated_at,
}: Contact): Contact => ({
  id,
  name,
  phone_number,
  email,
  tags,
  custom_fields,
  // Contacts stored before opt-out existed have no such attribute.
  opted_out_at: opted_out_at ?? null,
  ...(user_id && { user_id }),
  ...(source && { source }),
  created_at,
  updated_at,
});

/** Tags match case-insensitively; this is the form they are indexed and counted under. */
export const tagKey = (tag: string): string => tag.toLowerCase();
