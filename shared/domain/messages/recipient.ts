import { contactIdForUser } from '#shared/data/contact-claims';
import { getContact } from '#shared/data/contact';

/**
 * Who a message goes to (contract §21): a phone number, a business-scoped user id, or both. The
 * platform takes the number in `to` and the user id in `recipient` (the number wins when both are
 * given); a message stores the number in `phone_number` (empty when unknown) and the id in `user_id`.
 */
export interface Recipient {
  /** Digits with the country code; empty for a customer known only by user id, and for a chat group. */
  phone: string;
  userId?: string;
  /** A chat group (contract §23): our id, and the platform's group id it is sent to. */
  group?: { id: string; platformId: string };
}

/**
 * The key a customer's window, opt-out and pair pace are kept under: the number when it is known
 * (from the request, the platform or the contact), else the user id; a chat group's, its id. A user
 * id contains a period and a group id hyphens, so none collide (docs/data-model.md, "Customers known by user id").
 */
export const customerKey = (recipient: Recipient): string => recipient.phone || recipient.userId || recipient.group!.id;

/** A message's recipient as it stores it. */
export const recipientOf = (message: { phone_number: string; user_id?: string; chat_group_id?: string; platform_group_id?: string }): Recipient => ({
  phone: message.phone_number,
  ...(message.user_id && { userId: message.user_id }),
  ...(message.chat_group_id && message.platform_group_id && { group: { id: message.chat_group_id, platformId: message.platform_group_id } }),
});

/**
 * A campaign recipient's key (its chunk's `p`): a number's digits, or for a contact known only by
 * user id that id (a period in it tells them apart).
 */
export const recipientOfKey = (key: string): Recipient => (/^\d+$/.test(key) ? { phone: key } : { phone: '', userId: key });

/**
 * A send's recipient: `to` as given (nothing read), or `to_user_id` with the number of the contact
 * that holds that id when the contact has one (its claim and the contact: two reads, user id sends only).
 */
export async function resolveRecipient(ws: string, to: string | undefined, toUserId: string | undefined): Promise<Recipient> {
  if (to !== undefined) return { phone: to };
  const contactId = await contactIdForUser(ws, toUserId!);
  const contact = contactId ? await getContact(ws, contactId) : undefined;
  return { phone: contact?.phone_number ?? '', userId: toUserId };
}
