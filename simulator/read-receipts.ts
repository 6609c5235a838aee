import { whatsappErrors } from '#simulator/whatsapp-errors';

/** A read receipt the simulator accepted, as `GET /_simulate/read-receipts` lists it. */
export interface ReadReceipt {
  phone_number_id: string;
  message_id: string;
  typing: boolean;
  /** ISO 8601 time the simulator accepted it. */
  received_at: string;
  /** The request body exactly as parsed from JSON. */
  request: unknown;
}

const invalid = whatsappErrors.invalidParameter;
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The customers' messages the simulator delivered, and the read receipts sent for them:
 * `POST /{phone_number_id}/messages` `{ messaging_product: "whatsapp", status: "read", message_id,
 * typing_indicator?: { type: "text" } }` (Meta, "Mark messages as read", "Typing indicators").
 * Only a message a customer sent to that number can be marked read (our own cannot, per the
 * platform); anything else is error 100.
 */
export class ReadReceipts {
  /** Inbound wamids by the business number they reached, oldest first. */
  private readonly delivered = new Map<string, string>();
  private items: ReadReceipt[] = [];

  constructor(private readonly limit = 100_000) {}

  noteInbound(wamid: string, phoneNumberId: string): void {
    this.delivered.set(wamid, phoneNumberId);
    if (this.delivered.size > this.limit) this.delivered.delete(this.delivered.keys().next().value!);
  }

  /** Checks and records a read receipt (with its typing indicator); throws the platform's error. */
  mark(phoneNumberId: string, body: Record<string, unknown>): void {
    if (body.messaging_product !== 'whatsapp') throw invalid('Param messaging_product must be "whatsapp".');
    if (body.status !== 'read') throw invalid('Param status must be "read".');
    const messageId = body.message_id;
    if (typeof messageId !== 'string' || !messageId) throw invalid('The parameter message_id is required.');
    if (this.delivered.get(messageId) !== phoneNumberId) throw invalid(`Param message_id (${messageId}) is not a message this number received.`);
    const typing = body.typing_indicator;
    if (typing !== undefined && (!isObject(typing) || typing.type !== 'text')) throw invalid('Param typing_indicator must be { type: "text" }.');
    this.items.push({
      phone_number_id: phoneNumberId,
      message_id: messageId,
      typing: typing !== undefined,
      received_at: new Date().toISOString(),
      request: body,
    });
    if (this.items.length > this.limit) this.items.splice(0, this.items.length - this.limit);
  }

  list(): ReadReceipt[] {
    return [...this.items];
  }
}
