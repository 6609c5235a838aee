/**
 * The webhook fields of a number that the WhatsApp Business app shares with the Cloud API
 * (coexistence, docs/platform-coexistence.md §3): `smb_message_echoes` (what the business sent
 * from the app), `history` (the chats before onboarding, in chunks; media follow-ups as
 * `messages`), `smb_app_state_sync` (the app's contacts), and the `account_update` telling that
 * the business went back to the app alone. Anything malformed is left out; the parser knows the wire only.
 */
import { kindOf, type PlatformInbound } from '#shared/platform/webhook-messages';
import { list, num, object, phoneOf, str, time, type Json } from '#shared/platform/webhook-values';

export const COEXISTENCE_FIELDS = ['smb_message_echoes', 'history', 'smb_app_state_sync'] as const;

/** A message of the business's chat with a customer: sent from the app (an echo or its history), or the customer's (history). */
export interface AppMessage extends Pick<PlatformInbound, 'type' | 'content' | 'fields'> {
  phoneNumberId: string;
  providerMessageId: string;
  customer: { phone: string | null; userId: string | null };
  fromBusiness: boolean;
  at: string;
  /** History only: the message's last status as the app knew it (`history_context.status`, lower-case). */
  status: string | null;
}

export interface AppContact {
  phoneNumberId: string;
  phone: string;
  name: string | null;
  userId: string | null;
  removed: boolean;
  at: string;
}

/** The business left the Cloud API for the app alone (`PARTNER_REMOVED` naming the number, or `ACCOUNT_OFFBOARDED`). */
export interface AppOffboarding {
  wabaId: string;
  displayPhoneNumber: string | null;
  reason: string | null;
  at: string;
}

export interface CoexistenceWebhook {
  echoes: AppMessage[];
  history: AppMessage[];
  appContacts: AppContact[];
  offboardings: AppOffboarding[];
}

function appMessage(message: Json, phoneNumberId: string, businessDigits: string | null, thread: Json | undefined): AppMessage | undefined {
  const id = str(message.id);
  if (!id) return undefined;
  const from = phoneOf(message.from);
  // The business's messages come from its own number, or carry `to` (docs §3.2: "only included if SMB message echo").
  const fromBusiness = message.to !== undefined || (businessDigits !== null && from === businessDigits);
  const threadPhone = thread ? (phoneOf(thread.id) ?? phoneOf(object(thread.context)?.wa_id)) : null;
  const customer = {
    phone: fromBusiness ? (phoneOf(message.to) ?? threadPhone) : (from ?? threadPhone),
    userId: str(fromBusiness ? message.to_user_id : message.from_user_id) ?? str(object(thread?.context)?.user_id) ?? null,
  };
  if (!customer.phone && !customer.userId) return undefined;
  return {
    phoneNumberId,
    providerMessageId: id,
    customer,
    fromBusiness,
    at: time(message.timestamp),
    ...kindOf(message),
    status: str(object(message.history_context)?.status)?.toLowerCase() ?? null,
  };
}

/** Reads a coexistence field's change into `into`. */
export function readCoexistence(field: string, value: Json, into: CoexistenceWebhook): void {
  const metadata = object(value.metadata);
  const phoneNumberId = str(metadata?.phone_number_id);
  if (!phoneNumberId) return;
  const business = phoneOf(metadata?.display_phone_number);
  const read = (message: Json, thread?: Json) => appMessage(message, phoneNumberId, business, thread);
  if (field === 'smb_message_echoes') {
    into.echoes.push(...list(value.message_echoes).flatMap((m) => read(m) ?? []));
    return;
  }
  if (field === 'history') {
    for (const chunk of list(value.history))
      for (const thread of list(chunk.threads)) into.history.push(...list(thread.messages).flatMap((m) => read(m, thread) ?? []));
    // Media follow-ups, and the business's messages in the BSUID-era form, come straight under the value.
    into.history.push(...[...list(value.messages), ...list(value.message_echoes)].flatMap((m) => read(m) ?? []));
    return;
  }
  for (const entry of list(value.state_sync)) {
    const contact = object(entry.contact);
    const phone = phoneOf(contact?.phone_number);
    if (entry.type !== 'contact' || !phone) continue;
    into.appContacts.push({
      phoneNumberId,
      phone,
      name: str(contact?.full_name) ?? str(contact?.first_name) ?? null,
      userId: str(contact?.user_id) ?? null,
      removed: entry.action === 'remove',
      at: time(object(entry.metadata)?.timestamp),
    });
  }
}

/** An `account_update` that takes a number off the Cloud API: the coexistence form names it by `phone_number`. */
export function readOffboarding(wabaId: string | undefined, value: Json, at: unknown): AppOffboarding | undefined {
  const event = str(value.event);
  if (!wabaId || (event !== 'PARTNER_REMOVED' && event !== 'ACCOUNT_OFFBOARDED')) return undefined;
  const seconds = num(at);
  return {
    wabaId,
    displayPhoneNumber: phoneOf(value.phone_number),
    reason: str(object(value.disconnection_info)?.reason) ?? (event === 'ACCOUNT_OFFBOARDED' ? 'ACCOUNT_OFFBOARDED' : null),
    at: time(seconds ?? 0),
  };
}
