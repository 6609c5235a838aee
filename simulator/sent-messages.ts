import type { SendRequest, TemplatePayload, TextPayload } from '#simulator/message-request';
import { platformWaId } from '#simulator/ids';

/** An accepted send request, as `GET /_simulate/messages` lists it. */
export interface SentMessage {
  wamid: string;
  phone_number_id: string;
  /** The recipient's digits (the `wa_id`; `request.to` holds the number as sent), the user id of a send by `recipient` alone, or the group id of a group send. */
  to: string;
  type: SendRequest['type'];
  template?: TemplatePayload;
  text?: TextPayload;
  biz_opaque_callback_data?: string;
  /** ISO 8601 time the simulator accepted the request. */
  received_at: string;
  /** The request body exactly as parsed from JSON. */
  request: unknown;
  /** The access token the request was made with (the simulator's tokens are its own fakes): which business's token a send used. */
  access_token: string;
}

/** Keeps the most recent accepted send requests, oldest first; the oldest are dropped past `limit`. */
export class SentMessages {
  private items: SentMessage[] = [];
  /** When each (business number, recipient) pair last had a send accepted, for the pair rate limit. */
  private lastAccepted = new Map<string, number>();

  constructor(private readonly limit = 100_000) {}

  add(message: SentMessage): void {
    this.items.push(message);
    this.lastAccepted.set(`${message.phone_number_id}|${message.to}`, Date.parse(message.received_at));
    if (this.items.length > this.limit) this.items.splice(0, this.items.length - this.limit);
  }

  /** All records, or those to one recipient (compared by WhatsApp id, so `+1 555...` matches `1555...` and `52…` matches `521…`). */
  list(to?: string): SentMessage[] {
    if (to === undefined) return [...this.items];
    // A user id (sent by `recipient` alone) or a group id is compared as it is.
    const waId = /^\+?[\d\s().-]+$/.test(to) ? platformWaId(to.replace(/\D/g, '')) : to;
    return this.items.filter((message) => message.to === waId);
  }

  /** Epoch ms of the last accepted send from this number to this WhatsApp id, if any. */
  lastAcceptedAt(phoneNumberId: string, waId: string): number | undefined {
    return this.lastAccepted.get(`${phoneNumberId}|${waId}`);
  }

  clear(): void {
    this.items = [];
    this.lastAccepted.clear();
  }
}
