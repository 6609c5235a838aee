import { failedConditions, transact } from '#shared/data/table/transact';
import { metricMove } from '#shared/data/campaign-metrics';
import { fillTimestamp, getMessage, platformIdPut, statusMove } from '#shared/data/message';
import { messageCountMove } from '#shared/data/message-counts';
import { messageShard } from '#shared/data/message-shard';
import { nextStatus, type Message, type MessageError, type MessageStatus } from '#shared/domain/messages/message';
import { completeIfDone } from '#shared/domain/campaigns/completion';

export interface StatusReport {
  status: 'sent' | 'delivered' | 'read' | 'failed';
  /** When it happened (ISO-8601). */
  at: string;
  providerMessageId?: string;
  error?: MessageError;
}

const MAX_ATTEMPTS = 10;

/** The message's move with its workspace counts and, for a campaign message, its campaign metrics: one transaction. */
function transition(message: Message, to: MessageStatus, report: StatusReport) {
  const ws = message.workspace_id;
  const shard = messageShard(message.id);
  // The platform's id is recorded with the first report that brings it, with its lookup item.
  const newProviderId = message.provider_message_id ? undefined : report.providerMessageId;
  return [
    statusMove(message, {
      to,
      timestamp: `${report.status}_at`,
      at: report.at,
      providerMessageId: newProviderId,
      error: to === 'failed' ? (report.error ?? { code: 'unknown', title: 'Unknown error' }) : undefined,
    }),
    messageCountMove(ws, shard, message.status, to),
    ...(message.campaign_id ? [metricMove(ws, message.campaign_id, shard, message.status, to)] : []),
    ...(newProviderId ? [platformIdPut(message, newProviderId)] : []),
  ];
}

/**
 * Applies a status report monotonically: the message moves forward (never back, `failed` only
 * from queued or sent) with its counters in the same transaction, conditioned on the status it
 * was read in, so repeated, late and concurrent reports each count once.
 * Returns the message as it is afterwards, or undefined when there is no such message.
 * A caller that has just read the message passes it (`read`) to save the first read: should it be
 * stale, the transition's condition fails and the message is read again.
 */
export async function applyStatus(ws: string, id: string, report: StatusReport, read?: Message): Promise<{ message: Message; changed: boolean } | undefined> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const message = attempt === 0 && read ? read : await getMessage(ws, id, true);
    if (!message) return undefined;
    const to = nextStatus(message.status, report.status);
    if (!to) {
      if (report.status !== 'failed' && message.metadata[`${report.status}_at`] === null) await fillTimestamp(ws, id, `${report.status}_at`, report.at);
      return { message, changed: false };
    }
    try {
      await transact(transition(message, to, report));
      // The last message to leave `queued` completes its campaign.
      if (message.campaign_id && message.status === 'queued') await completeIfDone(ws, message.campaign_id, messageShard(message.id));
      return { message: { ...message, status: to }, changed: true };
    } catch (error) {
      if (!failedConditions(error)) throw error; // another report moved it meanwhile: read again
    }
  }
  throw new Error(`Status of message ${id} kept changing under ${MAX_ATTEMPTS} attempts`);
}
