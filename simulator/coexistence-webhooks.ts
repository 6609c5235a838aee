import { displayPhoneNumber, newWamid } from '#simulator/ids';
import { numberWebhook, unixSeconds, type BusinessNumber } from '#simulator/webhook-payloads';

/**
 * The coexistence webhooks as the platform posts them (docs/platform-coexistence.md §3, Meta
 * "Onboard WhatsApp Business app users", Jun 26 2026): `smb_message_echoes`, `history`,
 * `smb_app_state_sync` (each with `messaging_product` and `metadata`, the business named by the
 * same display number as every other webhook of the simulator), and `account_update`.
 */
type Json = Record<string, unknown>;

/** A text the business typed in the WhatsApp Business app (§3.1): `message_echoes[]`, `from` the business, `to` the customer. */
export function echoWebhook(number: BusinessNumber, to: string, text: string, at = Date.now()) {
  const echo = { from: displayPhoneNumber(number.phoneNumberId), to, id: newWamid(to), timestamp: unixSeconds(at), type: 'text', text: { body: text } };
  return { payload: numberWebhook(number, 'smb_message_echoes', { message_echoes: [echo] }), echo };
}

/** One message of the app's history: the customer's (`fromBusiness: false`) or the business's own. */
export interface HistoryMessage {
  customer: string;
  fromBusiness: boolean;
  /** Without text, a `media_placeholder` (media ids come later, in their own webhooks). */
  text?: string;
  /** Unix seconds (the device's time). */
  timestamp: number;
  /** `history_context.status`: DELIVERED, ERROR, PENDING, PLAYED, READ or SENT. */
  status: string;
}

export const HISTORY_STATUSES = ['DELIVERED', 'ERROR', 'PENDING', 'PLAYED', 'READ', 'SENT'];

/** A chunk's `metadata`: the phase (0: day 0–1, 1: days 1–90, 2: days 90–180), its order, and the overall progress (100 = done). */
export interface HistoryChunk {
  phase: 0 | 1 | 2;
  chunk_order: number;
  progress: number;
}

/**
 * `history[0].threads[]`, one thread per customer (`id` the customer's number), messages oldest
 * first. A business message has `from` the business and `to` the customer ("`to` — only included if
 * SMB message echo"; the BSUID-era example has it); a customer's has `from` the customer.
 */
function threadsOf(number: BusinessNumber, messages: readonly HistoryMessage[]) {
  const business = displayPhoneNumber(number.phoneNumberId);
  const threads = new Map<string, Json[]>();
  for (const m of [...messages].sort((a, b) => a.timestamp - b.timestamp)) {
    const list = threads.get(m.customer) ?? [];
    list.push({
      from: m.fromBusiness ? business : m.customer,
      ...(m.fromBusiness && { to: m.customer }),
      // The same message of the app keeps its id, however often it is synchronised.
      id: newWamid(
        m.customer,
        m.fromBusiness ? 'outbound' : 'inbound',
        `${number.phoneNumberId}|${m.customer}|${m.fromBusiness}|${m.timestamp}|${m.text ?? ''}`,
      ),
      timestamp: String(m.timestamp),
      ...(m.text === undefined ? { type: 'media_placeholder' } : { type: 'text', text: { body: m.text } }),
      history_context: { status: m.status },
    });
    threads.set(m.customer, list);
  }
  return [...threads].map(([id, list]) => ({ id, messages: list }));
}

/** One `history` webhook (§3.2): a chunk of the threads. */
export const historyWebhook = (number: BusinessNumber, chunk: HistoryChunk, messages: readonly HistoryMessage[]) =>
  numberWebhook(number, 'history', { history: [{ metadata: chunk, threads: threadsOf(number, messages) }] });

/** The business turned history sharing off in the app: `history[0].errors[]` with 2593109 (§3.2, "Declined"), in the usual envelope. */
export const historyDeclinedWebhook = (number: BusinessNumber) =>
  numberWebhook(number, 'history', {
    history: [
      {
        errors: [
          {
            code: 2593109,
            title: 'History sync is turned off by the business from the WhatsApp Business App',
            message: 'History sync is turned off by the business from the WhatsApp Business App',
            error_data: { details: 'History sharing is turned off by the business' },
          },
        ],
      },
    ],
  });

/** A contact of the app's address book; `remove` leaves the names out (§3.3). */
export interface AppContact {
  phone: string;
  name?: string;
  action: 'add' | 'remove';
}

/** `smb_app_state_sync` (§3.3): `state_sync[]` of `type: contact` with `full_name`, `first_name`, `phone_number`, `action`, `metadata.timestamp`. */
export const stateSyncWebhook = (number: BusinessNumber, contacts: readonly AppContact[], at = Date.now()) =>
  numberWebhook(number, 'smb_app_state_sync', {
    state_sync: contacts.map((c) => ({
      type: 'contact',
      contact: {
        ...(c.action === 'add' && c.name && { full_name: c.name, first_name: c.name.split(/\s+/)[0] }),
        phone_number: c.phone,
      },
      action: c.action,
      metadata: { timestamp: unixSeconds(at) },
    })),
  });

/**
 * `account_update` about a coexistence number (§3.4): `PARTNER_REMOVED` naming the number by its
 * `phone_number` with `disconnection_info { reason, initiated_by }` (the form the doc shows for
 * coexistence), or `ACCOUNT_OFFBOARDED` with nothing else; `entry[].time` an integer.
 */
export function accountUpdateWebhook(wabaId: string, value: Json, at = Date.now()) {
  return {
    object: 'whatsapp_business_account',
    entry: [{ id: wabaId, time: Math.floor(at / 1000), changes: [{ value, field: 'account_update' }] }],
  };
}
