import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#shared/data/table/client';
import { conditionally, setFields } from '#shared/data/table/conditions';
import { countQuery } from '#shared/data/table/count';
import { mergedQuery, type Positions } from '#shared/data/table/merged-query';
import { getMany } from '#shared/data/table/pages';
import { queryAll } from '#shared/data/table/query-all';
import { indexes } from '#shared/data/table/table';
import { MESSAGE_SHARDS, messageShard } from '#shared/data/message-shard';
import type { Direction, KindFields, Message, MessageMedia, MessageStatus } from '#shared/records/message';
import { nowIso } from '#shared/time';

export const messageKey = (ws: string, id: string) => ({ PK: `WS#${ws}#MSG#${id}`, SK: 'MESSAGE' });
/** Newest first, spread over MESSAGE_SHARDS partitions; the list merges them. */
const historyEntry = (ws: string, shard: number, id?: string) => ({ GSI3PK: `WS#${ws}#MESSAGES#${shard}`, ...(id && { GSI3SK: id }) });
/** One number's conversation, newest first: the `phone` filter. */
const conversationEntry = (ws: string, digits: string, id?: string) => ({ GSI2PK: `WS#${ws}#PHONE_MESSAGES#${digits}`, ...(id && { GSI2SK: id }) });

/**
 * A campaign message held for its send window (contract §15), by the time the window opens: the
 * window's resume hands on the entries due. Only held messages have it (a sparse index entry).
 */
const waitingEntry = (ws: string, campaignId: string, opensAt?: string, id?: string) => ({
  GSI1PK: `WS#${ws}#CAMPAIGN#${campaignId}#WAITING`,
  ...(opensAt && { GSI1SK: `${opensAt}#${id}` }),
});

/**
 * The platform's id (`wamid.…`) of a message, once known, as a small item of its own: replies,
 * reactions, edits and reports without our id find the message by it. An item beside the message
 * rather than an index entry on it: the message item stays under 1 KB, so its every later write
 * stays one unit (docs/performance.md).
 */
const platformIdKey = (ws: string, providerMessageId: string) => ({ PK: `WS#${ws}#WAMID#${providerMessageId}`, SK: 'WAMID' });

/**
 * Writes the lookup item of a message's platform id. Written before the message records the id,
 * so whoever reads the id on the message finds its lookup too; writing it again changes nothing.
 */
export async function putPlatformId(message: Message, providerMessageId: string): Promise<void> {
  await db().send(new PutCommand({ TableName: tableName(), Item: { ...platformIdKey(message.workspace_id, providerMessageId), message_id: message.id, campaign_id: message.campaign_id } }));
}

/**
 * A message as stored, with the send worker's bookkeeping: its claim, since when a send of unknown
 * outcome waits for the platform's report, and how many refusals about the pace it has waited out.
 */
export type StoredMessage = Message & { claim?: { token: string; at: number }; ambiguous_since?: string; waits?: number };

/** The stored item: the message plus its list (sharded) and conversation index keys. */
function messageItem(message: Message) {
  const ws = message.workspace_id;
  return {
    ...messageKey(ws, message.id),
    ...historyEntry(ws, messageShard(message.id), message.id),
    ...conversationEntry(ws, message.phone_number, message.id),
    ...(message.window_opens_at && message.campaign_id && waitingEntry(ws, message.campaign_id, message.window_opens_at, message.id)),
    ...message,
  };
}

export async function getMessage(ws: string, id: string, consistent = false): Promise<StoredMessage | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: messageKey(ws, id), ConsistentRead: consistent }));
  return Item as StoredMessage | undefined;
}

/**
 * Stores a new message with one conditional write. Idempotent by id: when a message with this
 * id exists already (a retried request, a re-delivered job), that one is returned and nothing is
 * written. The table's stream then counts it and enqueues its send (see docs/messaging.md).
 */
export async function insertMessage(message: Message): Promise<Message> {
  // An inbound message comes with its platform id.
  if (message.provider_message_id) await putPlatformId(message, message.provider_message_id);
  return (await putNewMessage(message)) ? message : (await getMessage(message.workspace_id, message.id, true))!;
}

/** The messages with these ids that exist, read strongly consistent. */
export const messagesByIds = (ws: string, ids: string[]): Promise<StoredMessage[]> => getMany<StoredMessage>(ids.map((id) => messageKey(ws, id)), true);

/** Writes a message unless one with its id exists: true when it was written. */
export const putNewMessage = (message: Message): Promise<boolean> =>
  conditionally(db().send(new PutCommand({ TableName: tableName(), Item: messageItem(message), ConditionExpression: 'attribute_not_exists(PK)' })));

/** Only the worker whose conditional write sets the claim may call the platform for this message. */
export const claimForSend = (message: Message, token: string): Promise<boolean> =>
  conditionally(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: messageKey(message.workspace_id, message.id),
        // A message held for its send window leaves the window's index as it goes (it keeps `window_opens_at`: its waits count from then).
        UpdateExpression: 'SET claim = :claim ADD attempts :one REMOVE ambiguous_since, GSI1PK, GSI1SK',
        ConditionExpression: '#status = :queued AND attribute_not_exists(claim)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':claim': { token, at: Date.now() }, ':queued': 'queued', ':one': 1 },
      }),
    ),
  );

/**
 * Gives the message back to the queue after a call the platform refused without sending;
 * `uncounted` takes the call back from `attempts` (a refusal about the account or the pace, not
 * the message) and counts it in `waits` instead, which spaces the message's next tries.
 */
export async function releaseClaim(message: Message, token: string, uncounted = false): Promise<void> {
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: messageKey(message.workspace_id, message.id),
      UpdateExpression: uncounted ? 'REMOVE claim ADD attempts :minusOne, waits :one' : 'REMOVE claim',
      ConditionExpression: 'claim.#token = :token',
      ExpressionAttributeNames: { '#token': 'token' },
      ExpressionAttributeValues: { ':token': token, ...(uncounted && { ':minusOne': -1, ':one': 1 }) },
    }),
  );
}

/**
 * Holds a claimed campaign message until its send window opens (contract §15): the claim is given
 * back, its attempt taken back (no call was made), and the message enters the window's index.
 */
export async function holdForWindow(message: Message, token: string, opensAt: string): Promise<void> {
  const entry = waitingEntry(message.workspace_id, message.campaign_id!, opensAt, message.id);
  await conditionally(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: messageKey(message.workspace_id, message.id),
        UpdateExpression: 'SET window_opens_at = :opens, GSI1PK = :pk, GSI1SK = :sk REMOVE claim ADD attempts :minusOne',
        ConditionExpression: 'claim.#token = :token',
        ExpressionAttributeNames: { '#token': 'token' },
        ExpressionAttributeValues: { ':token': token, ':opens': opensAt, ':pk': entry.GSI1PK, ':sk': entry.GSI1SK, ':minusOne': -1 },
      }),
    ),
  );
}

/** One page of a campaign's messages held for a window that opens by `until`, still queued: their ids, and where the next page starts. */
export async function waitingMessagesPage(ws: string, campaignId: string, until: string, startKey?: Record<string, unknown>) {
  const { Items, LastEvaluatedKey } = await db().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: indexes.byParent.indexName,
      KeyConditionExpression: 'GSI1PK = :pk AND GSI1SK <= :until',
      FilterExpression: '#status = :queued',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':pk': waitingEntry(ws, campaignId).GSI1PK, ':until': `${until}~`, ':queued': 'queued' },
      ProjectionExpression: 'id',
      ExclusiveStartKey: startKey,
    }),
  );
  return { ids: (Items ?? []).map((item) => item.id as string), next: LastEvaluatedKey };
}

/**
 * A send whose outcome is unknown (the call timed out, or its worker died during it): the claim
 * is given back with the time since when the platform's report is awaited (contract §14).
 */
export async function holdAmbiguous(message: Message, token: string, since: string): Promise<void> {
  await conditionally(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: messageKey(message.workspace_id, message.id),
        UpdateExpression: 'SET ambiguous_since = :since REMOVE claim',
        ConditionExpression: 'claim.#token = :token',
        ExpressionAttributeNames: { '#token': 'token' },
        ExpressionAttributeValues: { ':token': token, ':since': since },
      }),
    ),
  );
}

/** Keeps the platform's id when a report moved the message before our own write landed; nothing when it is set already. */
export async function recordProviderId(message: Message, providerMessageId: string): Promise<void> {
  await putPlatformId(message, providerMessageId);
  await conditionally(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: messageKey(message.workspace_id, message.id),
        UpdateExpression: 'SET provider_message_id = :id REMOVE claim',
        ConditionExpression: 'provider_message_id = :null',
        ExpressionAttributeValues: { ':id': providerMessageId, ':null': null },
      }),
    ),
  );
}

/** What a status change writes on the message besides its status. */
export interface StatusChange {
  to: MessageStatus;
  /** Which timestamp of `metadata` it fills (`sent_at`, …). */
  timestamp: string;
  at: string;
  providerMessageId?: string;
  error?: Message['error'];
}

/**
 * Moves the message from the status it was read in (the condition) with one conditional write:
 * true when it moved, false when its status had changed meanwhile. Its counts follow from the
 * table's stream (shared/domain/outbox/counts.ts).
 */
export function moveStatus(message: Message, change: StatusChange): Promise<boolean> {
  const names: Record<string, string> = { '#status': 'status', '#at': change.timestamp };
  const values: Record<string, unknown> = { ':from': message.status, ':to': change.to, ':at': change.at, ':now': nowIso() };
  const sets = ['#status = :to', 'metadata.#at = :at', 'updated_at = :now'];
  if (change.providerMessageId) {
    sets.push('provider_message_id = :provider');
    values[':provider'] = change.providerMessageId;
  }
  if (change.error) {
    sets.push('#error = :error');
    names['#error'] = 'error';
    values[':error'] = change.error;
  }
  return conditionally(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: messageKey(message.workspace_id, message.id),
        UpdateExpression: `SET ${sets.join(', ')} REMOVE claim`,
        ConditionExpression: '#status = :from',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      }),
    ),
  );
}

/** The message the platform knows by this id, in this workspace: our id and its campaign. */
export async function messageByPlatformId(ws: string, providerMessageId: string): Promise<{ id: string; campaign_id: string | null } | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: platformIdKey(ws, providerMessageId), ConsistentRead: true }));
  return Item ? { id: Item.message_id as string, campaign_id: (Item.campaign_id as string | null) ?? null } : undefined;
}

/** A customer's edit or deletion of their message: its new content and when it changed. */
export async function recordCustomerChange(ws: string, id: string, change: ({ edited_at: string } | { revoked_at: string }) & { content: string } & Partial<Record<keyof KindFields, null>>): Promise<void> {
  const { expression, names, values } = setFields({ ...change, updated_at: nowIso() });
  await conditionally(
    db().send(new UpdateCommand({ TableName: tableName(), Key: messageKey(ws, id), UpdateExpression: expression, ConditionExpression: 'attribute_exists(PK)', ExpressionAttributeNames: names, ExpressionAttributeValues: values })),
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

/** Fills a status timestamp that is still empty (a late `delivered` after `read`); nothing otherwise. */
export async function fillTimestamp(ws: string, id: string, timestamp: string, at: string): Promise<void> {
  await conditionally(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: messageKey(ws, id),
        UpdateExpression: 'SET metadata.#at = :at',
        ConditionExpression: 'attribute_exists(PK) AND metadata.#at = :null',
        ExpressionAttributeNames: { '#at': timestamp },
        ExpressionAttributeValues: { ':at': at, ':null': null },
      }),
    ),
  );
}

export interface MessageFilter {
  status?: MessageStatus;
  phone?: string;
  direction?: Direction;
  campaign_id?: string;
}

/** Filters DynamoDB evaluates on the index entries: the projected attributes (status is not projected, see table/table.ts). */
function filterOf(filter: MessageFilter) {
  const clauses: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const add = (attribute: 'direction' | 'campaign_id', value: string | undefined) => {
    if (value === undefined) return;
    clauses.push(`#${attribute} = :${attribute}`);
    names[`#${attribute}`] = attribute;
    values[`:${attribute}`] = value;
  };
  add('direction', filter.direction);
  add('campaign_id', filter.campaign_id);
  return clauses.length ? { FilterExpression: clauses.join(' AND '), ExpressionAttributeNames: names, values } : { values };
}

const indexOf = (filter: MessageFilter) => (filter.phone ? indexes.conversation : indexes.messageHistory);

/** One descending query per list shard, or the conversation index when filtering by phone. */
function sources(ws: string, filter: MessageFilter) {
  const { values, ...expression } = filterOf(filter);
  const index = indexOf(filter);
  const partitions = filter.phone ? [conversationEntry(ws, filter.phone).GSI2PK] : Array.from({ length: MESSAGE_SHARDS }, (_, shard) => historyEntry(ws, shard).GSI3PK);
  return partitions.map((pk) => ({
    IndexName: index.indexName,
    KeyConditionExpression: `${index.partitionKey} = :pk`,
    ExpressionAttributeValues: { ':pk': pk, ...values },
    ScanIndexForward: false,
    ...expression,
  }));
}

const keyOf = (filter: MessageFilter) => {
  const { partitionKey, sortKey } = indexOf(filter);
  return (item: Record<string, unknown>) => ({ PK: item.PK, SK: item.SK, [partitionKey]: item[partitionKey], [sortKey]: item[sortKey] });
};

/** The messages behind index entries, read by key, in order. */
const hydrate = (entries: Record<string, unknown>[]) => getMany(entries.map((entry) => ({ PK: entry.PK as string, SK: entry.SK as string })));

/** `status` is not in the indexes: it is checked on the messages read. */
const hasStatus = (status: MessageStatus) => (message: Record<string, unknown>) => message.status === status;

/** The exact number of a conversation's messages that pass the filter (a conversation is bounded). */
export async function conversationCount(ws: string, filter: MessageFilter & { phone: string }): Promise<number> {
  const [{ IndexName, KeyConditionExpression, ExpressionAttributeValues, FilterExpression, ExpressionAttributeNames }] = sources(ws, filter);
  const input = { IndexName, KeyConditionExpression, ExpressionAttributeValues, FilterExpression, ExpressionAttributeNames };
  if (!filter.status) return countQuery(input);
  // Status is not in the index: the conversation's messages are read to count it.
  return (await hydrate(await queryAll(input))).filter(hasStatus(filter.status)).length;
}

const encodeCursor = (positions: Positions) => Buffer.from(JSON.stringify(positions)).toString('base64url');

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A cursor's positions, only if each lies in the very partition its source reads (it never reaches another workspace); else undefined. */
function decodeCursor(ws: string, cursor: string, inputs: ReturnType<typeof sources>, filter: MessageFilter): Positions | undefined {
  let positions: unknown;
  try {
    positions = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  const { partitionKey, sortKey } = indexOf(filter);
  const valid =
    Array.isArray(positions) &&
    positions.length === inputs.length &&
    positions.every((p, i) => {
      if (p === null || p === 'done') return true;
      if (typeof p !== 'object' || Array.isArray(p)) return false;
      const key = p as Record<string, unknown>;
      if (typeof key[sortKey] !== 'string' || !UUID.test(key[sortKey] as string)) return false;
      const message = messageKey(ws, key[sortKey] as string);
      return Object.keys(key).length === 4 && key[partitionKey] === inputs[i].ExpressionAttributeValues[':pk'] && key.PK === message.PK && key.SK === message.SK;
    });
  return valid ? (positions as Positions) : undefined;
}

/**
 * A page of the workspace's messages, newest first, by offset or from an opaque cursor (which
 * depends on the filter). `invalid_cursor` when the cursor is not one of this list's.
 */
export async function messagesPage(
  ws: string,
  filter: MessageFilter,
  page: { skip: number; take: number; cursor?: string },
): Promise<{ messages: Message[]; nextCursor: string | null } | 'invalid_cursor'> {
  const inputs = sources(ws, filter);
  const from = page.cursor === undefined ? undefined : decodeCursor(ws, page.cursor, inputs, filter);
  if (page.cursor !== undefined && !from) return 'invalid_cursor';
  const { items, positions } = await mergedQuery(inputs, keyOf(filter), indexOf(filter).sortKey, {
    skip: from ? 0 : page.skip,
    take: page.take,
    from,
    hydrate,
    keep: filter.status && hasStatus(filter.status),
  });
  return { messages: items as unknown as Message[], nextCursor: positions ? encodeCursor(positions) : null };
}
