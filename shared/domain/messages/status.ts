import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#shared/data/table/client';
import { keys } from '#shared/data/keys';
import { failedConditions, transact, type TransactItem } from '#shared/data/table/transact';
import { countMove } from '#shared/domain/messages/counters';
import { campaignCountMove } from '#shared/domain/messages/campaign-counts';
import { messageShard, nextStatus, type Message, type MessageError, type MessageStatus } from '#shared/domain/messages/message';
import { getMessage } from '#shared/domain/messages/store';
import { nowIso } from '#shared/time';
import { completeIfDone } from '#shared/domain/campaigns/completion';

export interface StatusReport {
  status: 'sent' | 'delivered' | 'read' | 'failed';
  /** When it happened (ISO-8601). */
  at: string;
  providerMessageId?: string;
  error?: MessageError;
}

const MAX_ATTEMPTS = 10;

/** Fills the report's timestamp when the status does not move (a late `delivered` after `read`). */
async function fillTimestamp(ws: string, id: string, report: StatusReport) {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.message(ws, id),
        UpdateExpression: 'SET metadata.#at = :at',
        ConditionExpression: 'attribute_exists(PK) AND metadata.#at = :null',
        ExpressionAttributeNames: { '#at': `${report.status}_at` },
        ExpressionAttributeValues: { ':at': report.at, ':null': null },
      }),
    );
  } catch (error) {
    if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
  }
}

function transition(message: Message, to: MessageStatus, report: StatusReport): TransactItem[] {
  const ws = message.workspace_id;
  const names: Record<string, string> = { '#status': 'status', '#at': `${report.status}_at` };
  const values: Record<string, unknown> = { ':from': message.status, ':to': to, ':at': report.at, ':now': nowIso() };
  const sets = ['#status = :to', 'metadata.#at = :at', 'updated_at = :now'];
  if (report.providerMessageId && !message.provider_message_id) {
    sets.push('provider_message_id = :provider');
    values[':provider'] = report.providerMessageId;
  }
  if (to === 'failed') {
    sets.push('#error = :error');
    names['#error'] = 'error';
    values[':error'] = report.error ?? { code: 'unknown', title: 'Unknown error' };
  }
  return [
    {
      Update: {
        TableName: tableName(),
        Key: keys.message(ws, message.id),
        UpdateExpression: `SET ${sets.join(', ')} REMOVE claim`,
        ConditionExpression: '#status = :from',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      },
    },
    countMove(ws, message.id, message.status, to),
    ...(message.campaign_id ? [campaignCountMove(ws, message.campaign_id, message.id, message.status, to)] : []),
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
      if (report.status !== 'failed' && message.metadata[`${report.status}_at`] === null) await fillTimestamp(ws, id, report);
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
