import { UpdateCommand, type UpdateCommandInput } from '#shared/data/table/commands';
import { db, tableName } from '#shared/data/table/client';
import { conditionally, conditionallyOrFound, setFields } from '#shared/data/table/conditions';
import { messageKey, storedMessage, type StoredMessage } from '#shared/data/message';
import type { KindFields, Message, MessageMedia, MessageStatus } from '#shared/records/message';
import type { MessageCost, ReportedPricing } from '#shared/records/pricing';
import { nowIso } from '#shared/time';

/*
 * The writes that move a stored message's status (each conditioned on the status read), and the
 * fields reports and customers change later. The send worker's claim is in message-claim.ts.
 */
/** What a status change writes on the message besides its status. */
export interface StatusChange {
  to: MessageStatus;
  /** Which timestamp of `metadata` it fills (`sent_at`, …). */
  timestamp: string;
  at: string;
  providerMessageId?: string;
  error?: Message['error'];
  /** The report's pricing and its cost, recorded unless the message has pricing already. */
  priced?: Priced;
}

/** The pricing a report brought and what it cost (null when it cannot be priced). */
export interface Priced {
  pricing: ReportedPricing;
  cost: MessageCost | null;
}

/**
 * Sets `pricing` and `cost` unless the message has them: the first report that carries pricing
 * wins, in the write that applies it, without a condition that would fail the rest of the write.
 */
function pricedSets(priced: Priced, names: Record<string, string>, values: Record<string, unknown>): string[] {
  Object.assign(names, { '#pricing': 'pricing', '#cost': 'cost' });
  Object.assign(values, { ':pricing': priced.pricing, ':cost': priced.cost });
  return ['#pricing = if_not_exists(#pricing, :pricing)', '#cost = if_not_exists(#cost, :cost)'];
}

/**
 * What a write made without reading the message first requires the message to hold, in place of
 * what the read would have shown (a platform report's write: shared/domain/messages/status.ts).
 */
export interface Unread {
  /** The platform's id the message holds already: a message's first id is recorded after its lookup item, on the read path. */
  providerMessageId: string;
  /** The number the report's pricing was priced for: an outbound message to it, so the cost is the one its own number gives. */
  pricedFor?: string;
}

/** The conditions standing for the read, and their values. */
function unreadConditions(unread: Unread, values: Record<string, unknown>): string[] {
  values[':provider'] = unread.providerMessageId;
  if (!unread.pricedFor) return ['provider_message_id = :provider'];
  Object.assign(values, { ':phone': unread.pricedFor, ':outbound': 'outbound' });
  return ['provider_message_id = :provider', 'phone_number = :phone', 'direction = :outbound'];
}

/** The write that moves a message's status, with the conditions standing for the read when it is made unread. */
function statusMove(message: Pick<Message, 'workspace_id' | 'id'>, change: StatusChange, from: readonly MessageStatus[], unread?: Unread): UpdateCommandInput {
  const names: Record<string, string> = { '#status': 'status', '#at': change.timestamp };
  const values: Record<string, unknown> = { ':to': change.to, ':at': change.at, ':now': nowIso() };
  from.forEach((status, i) => (values[`:from${i}`] = status));
  const conditions = [`#status IN (${from.map((_, i) => `:from${i}`).join(', ')})`];
  const sets = ['#status = :to', 'metadata.#at = :at', 'updated_at = :now'];
  if (change.providerMessageId) {
    sets.push('provider_message_id = :provider');
    values[':provider'] = change.providerMessageId;
    values[':null'] = null;
    conditions.push('(attribute_not_exists(provider_message_id) OR provider_message_id = :null OR provider_message_id = :provider)');
  }
  if (unread) conditions.push(...unreadConditions(unread, values));
  if (change.priced) sets.push(...pricedSets(change.priced, names, values));
  if (change.error) {
    sets.push('#error = :error');
    names['#error'] = 'error';
    values[':error'] = change.error;
  }
  return {
    TableName: tableName(),
    Key: messageKey(message.workspace_id, message.id),
    UpdateExpression: `SET ${sets.join(', ')} REMOVE claim`,
    ConditionExpression: conditions.join(' AND '),
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
}

/** A conditional write on a message: applied, or the message as the write found it (undefined: there is none), to go on from without reading it. */
export type WriteOutcome = { applied: true } | { applied: false; found: StoredMessage | undefined };

const writeOrFound = async (input: UpdateCommandInput): Promise<WriteOutcome> => {
  const outcome = await conditionallyOrFound(db().send(new UpdateCommand({ ...input, ReturnValuesOnConditionCheckFailure: 'ALL_OLD' })));
  return outcome.applied ? { applied: true } : { applied: false, found: outcome.found && storedMessage(outcome.found) };
};

/**
 * Moves the message to `change.to` with one write conditioned on its status being one of `from`,
 * the statuses this change moves forward from (the status it was read in among them); when its
 * status had meanwhile become one the change does not move from, the message as the write found
 * it. A change that records the platform's id also needs the message to hold no other id; one
 * made without reading the message first (`unread`) needs what the read would have shown. Another
 * report that moved it forward meanwhile (`sent` → `delivered` while this `read` was under way)
 * thus costs no second read; the move it makes is the one it would have made from what it read
 * again. Its counts follow from the table's stream, from the status the item held before this
 * write (shared/domain/outbox/counts.ts).
 */
export const moveStatus = (
  message: Pick<Message, 'workspace_id' | 'id'>,
  change: StatusChange,
  from: readonly MessageStatus[],
  unread?: Unread,
): Promise<WriteOutcome> => writeOrFound(statusMove(message, change, from, unread));

/**
 * A `sent` report with pricing, written without reading the message first. Mostly it finds the
 * message sent by its worker, holding the report's platform id: the write records the pricing,
 * and the platform's time of sending as `sent_at` (in place of the worker's, on the platform's
 * clock as `delivered_at` and `read_at` are). When it overtook the worker's write, it finds the
 * message `queued` with no platform id, and the same write moves it to `sent` with the report's
 * id, as the read path would have after a failed write (issue 29: that was two calls more); the
 * worker's own write then fails its condition and changes nothing (a `queued` message that holds
 * the report's id already, held for the platform's quality assessment, moves the same way). Either
 * way the message must be an outbound one to `unread.pricedFor`, with no pricing yet. `queued`: the
 * message as it was when the write moved it from `queued` without an id, whose platform-id item
 * the caller puts.
 */
export async function recordSentUnread(
  message: Pick<Message, 'workspace_id' | 'id'>,
  at: string,
  priced: Priced,
  unread: Unread & { pricedFor: string },
): Promise<{ applied: true; queued?: StoredMessage } | { applied: false; found: StoredMessage | undefined }> {
  const values = {
    ':sent': 'sent',
    ':queued': 'queued',
    ':at': at,
    ':provider': unread.providerMessageId,
    ':phone': unread.pricedFor,
    ':outbound': 'outbound',
    ':pricing': priced.pricing,
    ':cost': priced.cost,
    ':now': nowIso(),
    ':null': null,
  };
  const outcome = await conditionallyOrFound(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: messageKey(message.workspace_id, message.id),
        UpdateExpression:
          'SET #status = :sent, metadata.sent_at = :at, provider_message_id = :provider, #pricing = :pricing, #cost = :cost, updated_at = :now REMOVE claim',
        ConditionExpression: [
          'phone_number = :phone AND direction = :outbound AND attribute_not_exists(#pricing)',
          '(provider_message_id = :provider OR (#status = :queued AND (attribute_not_exists(provider_message_id) OR provider_message_id = :null)))',
          '#status IN (:sent, :queued)',
        ].join(' AND '),
        ExpressionAttributeNames: { '#status': 'status', '#pricing': 'pricing', '#cost': 'cost' },
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_OLD',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    ),
  );
  if (!outcome.applied) return { applied: false, found: outcome.found && storedMessage(outcome.found) };
  const before = outcome.output.Attributes && storedMessage(outcome.output.Attributes);
  return before?.status === 'queued' && !before.provider_message_id ? { applied: true, queued: before } : { applied: true };
}

/** A customer's edit or deletion of their message: its new content and when it changed. */
export async function recordCustomerChange(
  ws: string,
  id: string,
  change: ({ edited_at: string } | { revoked_at: string }) & { content: string } & Partial<Record<keyof KindFields, null>>,
): Promise<void> {
  const { expression, names, values } = setFields({ ...change, updated_at: nowIso() });
  await conditionally(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: messageKey(ws, id),
        UpdateExpression: expression,
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      }),
    ),
  );
}

/** Fields of a message's media: the stored copy's key and what the platform said of it, or why the copy was given up. */
export async function updateMedia(ws: string, id: string, fields: Partial<MessageMedia>): Promise<void> {
  const entries = Object.entries(fields);
  await conditionally(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: messageKey(ws, id),
        UpdateExpression: `SET ${entries.map(([name]) => `media.#${name} = :${name}`).join(', ')}, updated_at = :now`,
        ConditionExpression: 'attribute_exists(media)',
        ExpressionAttributeNames: Object.fromEntries(entries.map(([name]) => [`#${name}`, name])),
        ExpressionAttributeValues: { ...Object.fromEntries(entries.map(([name, value]) => [`:${name}`, value])), ':now': nowIso() },
      }),
    ),
  );
}

/** A voice message was played: recorded once, beside the status, which it never moves. */
export async function recordPlayed(ws: string, id: string, at: string): Promise<void> {
  await conditionally(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: messageKey(ws, id),
        UpdateExpression: 'SET metadata.played_at = :at',
        ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(metadata.played_at)',
        ExpressionAttributeValues: { ':at': at },
      }),
    ),
  );
}

/** Fills a status timestamp that is still empty (a late `delivered` after `read`), with the report's pricing if it brought some; nothing otherwise. */
export async function fillTimestamp(ws: string, id: string, timestamp: string, at: string, priced?: Priced): Promise<void> {
  const names: Record<string, string> = { '#at': timestamp };
  const values: Record<string, unknown> = { ':at': at, ':null': null };
  const sets = ['metadata.#at = :at', ...(priced ? pricedSets(priced, names, values) : [])];
  await conditionally(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: messageKey(ws, id),
        UpdateExpression: `SET ${sets.join(', ')}`,
        ConditionExpression: 'attribute_exists(PK) AND metadata.#at = :null',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      }),
    ),
  );
}

/**
 * Records the pricing of a report that changes nothing else (its status and timestamp came before
 * without pricing), unless the message has pricing; a `sent` report's (`sentAt`) also records its
 * time of sending, as recordSentUnread does.
 */
export async function recordPricing(ws: string, id: string, priced: Priced, sentAt?: string): Promise<void> {
  await conditionally(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: messageKey(ws, id),
        UpdateExpression: `SET #pricing = :pricing, #cost = :cost${sentAt ? ', metadata.sent_at = :at' : ''}`,
        ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(#pricing)',
        ExpressionAttributeNames: { '#pricing': 'pricing', '#cost': 'cost' },
        ExpressionAttributeValues: { ':pricing': priced.pricing, ':cost': priced.cost, ...(sentAt && { ':at': sentAt }) },
      }),
    ),
  );
}
