import type { Faults } from '#simulator/faults';
import { newConversationId } from '#simulator/ids';
import { envelope, statusWebhook, unixSeconds, type BusinessNumber, type StatusName, type StatusPricing, type StatusReport } from '#simulator/webhook-payloads';
import type { WebhookSender } from '#simulator/platform-webhooks';
import { messageUndeliverable, statusFailure, type StatusError } from '#simulator/whatsapp-errors';

/** An accepted message whose status reports are to be sent. */
export interface AcceptedMessage {
  number: BusinessNumber;
  wamid: string;
  waId: string;
  /** How the platform priced it (simulator/pricing.ts). */
  pricing: StatusPricing;
  /** Sent by `recipient`: the user id (then also `waId` when sent by it alone). */
  userId?: string;
  /** The message's `type`: a reaction only ever gets `sent` (docs/platform-requests.md). */
  type: string;
  bizOpaqueCallbackData?: string;
  /** Set when the `fail_status` fault picked this send: it is reported `failed` with this platform code. */
  failCode?: number;
}

/**
 * What happens to a message, by recipient: `...9999` fails (131026), `...9997` fails (131049),
 * `...9998` is never read; a reaction is only sent; one the `fail_status` fault picked fails.
 */
export function statusSequence(waId: string, type = 'text', failCode?: number): StatusName[] {
  if (failCode !== undefined || waId.endsWith('9999') || waId.endsWith('9997')) return ['sent', 'failed'];
  if (type === 'reaction') return ['sent'];
  if (waId.endsWith('9998')) return ['sent', 'delivered'];
  return ['sent', 'delivered', 'read'];
}

/**
 * Schedules one signed webhook per status, `status_interval_ms` apart (at least), the first one interval
 * after acceptance. Timestamps follow the logical order even when `reorder_statuses` shuffles the posting order;
 * `duplicate_statuses` posts each one twice; `skip_delivered` leaves `delivered` out; `no_webhooks` sends nothing.
 */
export function scheduleStatuses(webhooks: WebhookSender, faults: Faults, message: AcceptedMessage): void {
  const settings = faults.current;
  if (settings.no_webhooks) return;
  const interval = settings.status_interval_ms;
  const start = Date.now();
  const conversationId = newConversationId();
  const sequence = statusSequence(message.waId, message.type, message.failCode).filter((status) => !(settings.skip_delivered && status === 'delivered'));
  // Pricing comes with `sent` and with one of `delivered` and `read`: the first of them reported.
  const pricedAfterSent = sequence.find((status) => status === 'delivered' || status === 'read');
  const reports = sequence.map((status, i) =>
    statusReport(message, status, start + (i + 1) * interval, conversationId, status === 'sent' || status === pricedAfterSent),
  );
  const order = settings.reorder_statuses ? shuffled(reports) : reports;
  const duplicate = settings.duplicate_statuses;
  if (settings.statuses_in_one_post) {
    const payload = envelope(message.number, { statuses: order });
    webhooks.later(order.length * interval, () => void webhooks.post(payload));
    return;
  }
  // Each timer is set when the one before fires: a stalled event loop delays the rest, it never bunches them.
  const postFrom = (i: number) => {
    if (i === order.length) return;
    webhooks.later(interval, () => {
      postFrom(i + 1);
      const payload = statusWebhook(message.number, order[i]);
      void webhooks.post(payload).then(() => (duplicate ? webhooks.post(payload) : undefined));
    });
  };
  postFrom(0);
}

/** Why a message failed: the `fail_status` code, else what its recipient number stands for. */
function failureOf(message: AcceptedMessage): StatusError {
  if (message.failCode !== undefined) return statusFailure(message.failCode);
  return message.waId.endsWith('9997') ? statusFailure(131049) : messageUndeliverable();
}

/**
 * One status report. Since v24.0 `conversation` is left out unless the message is in a free entry
 * point window (docs/platform-requests.md §9.2); it comes with the reports that carry pricing.
 */
function statusReport(message: AcceptedMessage, status: StatusName, atMs: number, conversationId: string, withPricing: boolean): StatusReport {
  const timestamp = unixSeconds(atMs);
  const freeEntryPoint = message.pricing.type === 'free_entry_point';
  return {
    id: message.wamid,
    status,
    timestamp,
    // Sent to a user id alone: no `recipient_id` (no number to show), `recipient_user_id` instead ("Business-scoped user IDs", status webhooks).
    ...(message.userId === message.waId ? {} : { recipient_id: message.waId }),
    ...(message.userId && { recipient_user_id: message.userId }),
    ...(message.bizOpaqueCallbackData !== undefined && { biz_opaque_callback_data: message.bizOpaqueCallbackData }),
    ...(withPricing &&
      freeEntryPoint && {
        conversation: {
          id: conversationId,
          ...(status === 'sent' && { expiration_timestamp: String(Number(timestamp) + 72 * 3600) }),
          origin: { type: message.pricing.category },
        },
      }),
    ...(withPricing && { pricing: message.pricing }),
    ...(status === 'failed' && { errors: [failureOf(message)] }),
  };
}

/** A shuffled copy that differs from the input whenever it has two or more items. */
function shuffled<T>(items: readonly T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  if (copy.length > 1 && copy.every((item, i) => item === items[i])) copy.push(copy.shift()!);
  return copy;
}
