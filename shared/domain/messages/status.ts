import { getMessage, putPlatformId } from '#shared/data/message';
import { fillTimestamp, moveStatus, recordPricing, recordSentUnread, type Priced, type Unread, type WriteOutcome } from '#shared/data/message-status';
import { nextStatus, statusesMovedBy } from '#shared/domain/messages/message';
import { costOf } from '#shared/domain/pricing/message-cost';
import { rateCardOf } from '#shared/domain/pricing/rate-cards';
import type { Message, MessageError } from '#shared/records/message';
import type { ReportedPricing } from '#shared/records/pricing';

export interface StatusReport {
  status: 'sent' | 'delivered' | 'read' | 'failed';
  /** When it happened (ISO-8601). */
  at: string;
  providerMessageId?: string;
  error?: MessageError;
  /** How the platform priced the message, when the report says (contract §20). */
  pricing?: ReportedPricing;
}

/** The report's pricing and its cost by the workspace's card, when the report brings pricing the message does not have yet. */
async function pricedBy(message: Message, report: StatusReport): Promise<Priced | undefined> {
  if (!report.pricing || message.pricing || message.direction !== 'outbound') return undefined;
  return { pricing: report.pricing, cost: costOf(await rateCardOf(message.workspace_id), message.phone_number, report.pricing) };
}

const MAX_ATTEMPTS = 10;

/** The `sent` report has been applied to the message before: a delivery of it again. */
const appliedAlready = (message: Message, report: StatusReport) =>
  message.provider_message_id === report.providerMessageId && message.metadata.sent_at === report.at && message.pricing !== null;

/** The failure a message keeps: the report's error, or an unknown one. */
const failure = (report: StatusReport) => report.error ?? { code: 'unknown', title: 'Unknown error' };

/**
 * A platform's report in one write, without reading the message first (issue 29: the read was
 * a call of its own per report). The write's condition stands for what the read would have
 * checked (data/message-status.ts, Unread): the message holds the report's platform id already,
 * and, when the report brings pricing, is an outbound message to the number the report names,
 * the number its cost is priced by. A `sent` report mostly finds its message sent by its worker
 * and records its pricing; one that overtook the worker's write moves the message from `queued`
 * in the same write (recordSentUnread), and then puts its platform-id item, which the worker may
 * not live to put. That put comes after the message holds the id, so the report's next delivery
 * (this one failed after its write) finds the report applied and puts it again. `not_tried` when
 * the report cannot be written so (no platform id; a `sent` report without pricing, which would
 * write nothing); when the condition fails, the message as the write found it, which the read
 * path goes on from (an out-of-order report, another number).
 */
async function applyUnread(ws: string, id: string, report: StatusReport, recipientPhone: string | undefined): Promise<WriteOutcome | 'not_tried'> {
  if (!report.providerMessageId || (report.pricing && !recipientPhone) || (report.status === 'sent' && !report.pricing)) return 'not_tried';
  const priced = report.pricing && { pricing: report.pricing, cost: costOf(await rateCardOf(ws), recipientPhone!, report.pricing) };
  const timestamp = `${report.status}_at`;
  if (report.status === 'sent') {
    const outcome = await recordSentUnread({ workspace_id: ws, id }, report.at, priced!, {
      providerMessageId: report.providerMessageId,
      pricedFor: recipientPhone!,
    });
    if (outcome.applied && outcome.queued) await putPlatformId(outcome.queued, report.providerMessageId);
    else if (!outcome.applied && outcome.found && appliedAlready(outcome.found, report)) await putPlatformId(outcome.found, report.providerMessageId);
    return outcome;
  }
  const unread: Unread = { providerMessageId: report.providerMessageId, ...(report.pricing && { pricedFor: recipientPhone }) };
  const from = statusesMovedBy(report.status);
  const error = report.status === 'failed' ? failure(report) : undefined;
  return moveStatus({ workspace_id: ws, id }, { to: report.status, timestamp, at: report.at, error, priced }, from, unread);
}

/** A platform's status report: in one write when it can be (applyUnread), else read and applied (applyStatus), from the message the failed write found. */
export async function applyReport(ws: string, id: string, report: StatusReport, recipientPhone?: string): Promise<void> {
  const outcome = await applyUnread(ws, id, report, recipientPhone);
  if (outcome === 'not_tried') await applyStatus(ws, id, report);
  else if (!outcome.applied && outcome.found) await applyStatus(ws, id, report, outcome.found);
}

/**
 * Applies a status report monotonically: the message moves forward (never back, `failed` only
 * from queued or sent) with one write conditioned on its status being one the report moves
 * forward from (the status it was read in is one), so repeated, late and concurrent reports each
 * move it once. Its workspace counts and campaign metrics follow
 * from the table's stream, exactly once per move (shared/domain/outbox/counts.ts), and so does
 * its campaign's completion.
 * The first report that carries pricing records it and its cost in the same write (set only if
 * absent, so a duplicate or a later report changes nothing); the stream counts that cost once.
 * Returns the message as it is afterwards, or undefined when there is no such message.
 * A caller that has just read the message passes it (`read`) to save the first read: should it be
 * stale, the condition fails and the write brings the message as it is (no second read).
 */
export async function applyStatus(ws: string, id: string, report: StatusReport, read?: Message): Promise<{ message: Message; changed: boolean } | undefined> {
  // The message as last seen: read, or found by the write whose condition it failed.
  let seen: Message | undefined = read;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const message = seen ?? (await getMessage(ws, id, true));
    if (!message) return undefined;
    const to = nextStatus(message.status, report.status);
    const priced = await pricedBy(message, report);
    if (!to) {
      if (report.status !== 'failed' && message.metadata[`${report.status}_at`] === null) await fillTimestamp(ws, id, `${report.status}_at`, report.at, priced);
      else if (priced) await recordPricing(ws, id, priced, report.status === 'sent' ? report.at : undefined);
      return { message, changed: false };
    }
    // The platform's id is recorded with the first report that brings it, after its lookup item.
    const newProviderId = message.provider_message_id ? undefined : report.providerMessageId;
    if (newProviderId) await putPlatformId(message, newProviderId);
    const moved = await moveStatus(
      message,
      {
        to,
        timestamp: `${report.status}_at`,
        at: report.at,
        providerMessageId: newProviderId,
        error: to === 'failed' ? failure(report) : undefined,
        priced,
      },
      statusesMovedBy(report.status),
    );
    if (moved.applied) return { message: { ...message, status: to }, changed: true };
    // Another report moved it past what this one moves, or recorded another platform id, meanwhile: go on from what the write found.
    if (!moved.found) return undefined;
    seen = moved.found;
  }
  throw new Error(`Status of message ${id} kept changing under ${MAX_ATTEMPTS} attempts`);
}
