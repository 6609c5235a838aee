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
  contacts?: { profile: { name: string }; wa_id: string }[];
  messages?: InboundMessage[];
  statuses?: StatusReport[];
}

/** A customer's message as the platform posts it: `type` names the field holding its object (docs/platform-payloads.md). */
export interface InboundMessage {
  from: string;
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
  type: 'regular' | 'free_customer_service' | 'free_entry_point';
  category: string;
}

export interface StatusReport {
  id: string;
  status: StatusName;
  /** Unix seconds, as a string. */
  timestamp: string;
  recipient_id: string;
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

export const inboundWebhook = (number: BusinessNumber, sender: { name: string; waId: string }, message: InboundMessage): WebhookEnvelope =>
  envelope(number, { contacts: [{ profile: { name: sender.name }, wa_id: sender.waId }], messages: [message] });
