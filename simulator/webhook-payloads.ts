import { displayPhoneNumber } from '#simulator/ids';
import type { StatusError } from '#simulator/whatsapp-errors';

/** The shapes of the Cloud API webhooks the simulator POSTs (field `messages`). */
export interface WebhookEnvelope {
  object: 'whatsapp_business_account';
  entry: { id: string; changes: { field: 'messages'; value: MessagesValue }[] }[];
}

export interface MessagesValue {
  messaging_product: 'whatsapp';
  metadata: { display_phone_number: string; phone_number_id: string };
  contacts?: { profile: { name: string; username?: string }; wa_id?: string; user_id?: string; parent_user_id?: string }[];
  messages?: InboundMessage[];
  statuses?: StatusReport[];
}

/** A customer's message as the platform posts it: `type` names the field holding its object (docs/platform-payloads.md). */
export interface InboundMessage {
  /** Omitted for a customer known by username whose number the business may not see. */
  from?: string;
  /** The customer's business-scoped user id (since April 2026). */
  from_user_id?: string;
  id: string;
  timestamp: string;
  type: string;
  context?: { from: string; id: string };
  [typeObject: string]: unknown;
}

export type StatusName = 'sent' | 'delivered' | 'read' | 'failed';

/** `pricing` of a status report since July 2025 (docs/platform-requests.md §9.3); `billable` is deprecated but still sent. */
export interface StatusPricing {
  billable: boolean;
  pricing_model: 'PMP';
  type: 'regular' | 'free_customer_service' | 'free_entry_point' | 'free_group_customer_service';
  category: string;
}

export interface StatusReport {
  id: string;
  status: StatusName;
  /** Unix seconds, as a string. */
  timestamp: string;
  recipient_id?: string;
  /** A message to a group: `group`, `recipient_id` the group, `recipient_participant_id` the member (simulator/group-statuses.ts). */
  recipient_type?: 'group';
  recipient_participant_id?: string;
  recipient_participant_user_id?: string;
  recipient_participant_parent_user_id?: string;
  recipient_user_id?: string;
  biz_opaque_callback_data?: string;
  conversation?: { id: string; expiration_timestamp?: string; origin: { type: string } };
  pricing?: StatusPricing;
  errors?: StatusError[];
}

export const unixSeconds = (ms: number = Date.now()): string => String(Math.floor(ms / 1000));

/** Which business account (WABA) a phone number belongs to: registered, else the number's own id stands in. */
export interface BusinessNumber {
  phoneNumberId: string;
  wabaId: string;
}

/**
 * One webhook around one change. The platform puts the WhatsApp Business Account id in `entry[].id`
 * (receivers route by `metadata.phone_number_id`).
 */
export function envelope(number: BusinessNumber, value: Omit<MessagesValue, 'messaging_product' | 'metadata'>): WebhookEnvelope {
  const phoneNumberId = number.phoneNumberId;
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: number.wabaId,
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: displayPhoneNumber(phoneNumberId), phone_number_id: phoneNumberId },
              ...value,
            },
          },
        ],
      },
    ],
  };
}

export const statusWebhook = (number: BusinessNumber, status: StatusReport): WebhookEnvelope => envelope(number, { statuses: [status] });

/**
 * One change of `field` about a number, as the platform posts its number-level fields (`calls`, the
 * group fields, the coexistence fields): `value` with `messaging_product` and `metadata`, before `field`.
 */
export function numberWebhook<Value extends Record<string, unknown>>(number: BusinessNumber, field: string, value: Value) {
  const phoneNumberId = number.phoneNumberId;
  return {
    object: 'whatsapp_business_account' as const,
    entry: [
      {
        id: number.wabaId,
        changes: [
          {
            value: {
              messaging_product: 'whatsapp' as const,
              metadata: { display_phone_number: displayPhoneNumber(phoneNumberId), phone_number_id: phoneNumberId },
              ...value,
            },
            field,
          },
        ],
      },
    ],
  };
}

/** The sender as `contacts[]` names them: `wa_id` when the number may be shown, `user_id` and `profile.username` when given ("Business-scoped user IDs"). */
export interface InboundSender {
  name: string;
  waId?: string;
  userId?: string;
  username?: string;
}

export const inboundWebhook = (number: BusinessNumber, sender: InboundSender, message: InboundMessage): WebhookEnvelope =>
  envelope(number, {
    contacts: [
      {
        profile: { name: sender.name, ...(sender.username && { username: sender.username }) },
        ...(sender.waId && { wa_id: sender.waId }),
        ...(sender.userId && { user_id: sender.userId }),
      },
    ],
    messages: [message],
  });
