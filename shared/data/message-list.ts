import { QueryCommand } from '#shared/data/table/commands';
import { db, tableName } from '#shared/data/table/client';
import { countQuery } from '#shared/data/table/count';
import { mergedQuery, type Positions } from '#shared/data/table/merged-query';
import { getMany } from '#shared/data/table/pages';
import { queryAll } from '#shared/data/table/query-all';
import { indexes } from '#shared/data/table/table';
import { conversationEntry, historyEntry, messageKey, waitingEntry, restoredItem } from '#shared/data/message';
import { MESSAGE_SHARDS } from '#shared/data/message-shard';
import type { Direction, Message, MessageStatus } from '#shared/records/message';

/*
 * Lists of messages, read from their index entries: the workspace's (sharded) and one number's
 * conversation, newest first, with their opaque cursor; a campaign's messages held for its window.
 */

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
      ProjectionExpression: 'PK',
      ExclusiveStartKey: startKey,
    }),
  );
  return { ids: (Items ?? []).map((item) => restoredItem(item).id as string), next: LastEvaluatedKey };
}

export interface MessageFilter {
  status?: MessageStatus;
  phone?: string;
  /** A chat group's messages (contract §23): its conversation, as a number's is (data/message.ts keys both). */
  chat_group_id?: string;
  direction?: Direction;
  campaign_id?: string;
  /** The number the messages store: `null` keeps those that store none (the workspace's first number's). */
  stored_number?: string | null;
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

/** The conversation a filter reads: a chat group's, or a number's. */
const conversationOf = (filter: MessageFilter): string | undefined => filter.chat_group_id ?? filter.phone;
const indexOf = (filter: MessageFilter) => (conversationOf(filter) ? indexes.conversation : indexes.messageHistory);

/** One descending query per partition the list reads (`listShards`), or the conversation index when filtering by phone. */
function sources(ws: string, filter: MessageFilter, listShards: number) {
  const { values, ...expression } = filterOf(filter);
  const index = indexOf(filter);
  const conversation = conversationOf(filter);
  const partitions = conversation
    ? [conversationEntry(ws, conversation).GSI2PK]
    : Array.from({ length: listShards }, (_, shard) => historyEntry(ws, shard).GSI3PK);
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
const hydrate = async (entries: Record<string, unknown>[]) =>
  (await getMany(entries.map((entry) => ({ PK: entry.PK as string, SK: entry.SK as string })))).map(restoredItem);

/** `status` and the number are not in the indexes: they are checked on the messages read; undefined when neither is filtered. */
function checkedOnMessages({ status, stored_number }: MessageFilter): ((message: Record<string, unknown>) => boolean) | undefined {
  if (status === undefined && stored_number === undefined) return undefined;
  return (message) =>
    (status === undefined || message.status === status) && (stored_number === undefined || (message.business_number_id ?? null) === stored_number);
}

/** The exact number of a conversation's messages that pass the filter (a conversation is bounded). */
export async function conversationCount(ws: string, filter: MessageFilter): Promise<number> {
  const [{ IndexName, KeyConditionExpression, ExpressionAttributeValues, FilterExpression, ExpressionAttributeNames }] = sources(ws, filter, 1);
  const input = { IndexName, KeyConditionExpression, ExpressionAttributeValues, FilterExpression, ExpressionAttributeNames };
  const keep = checkedOnMessages(filter);
  if (!keep) return countQuery(input);
  // Status and number are not in the index: the conversation's messages are read to count them.
  return (await hydrate(await queryAll(input))).filter(keep).length;
}

/**
 * A cursor of a list that read one partition, now that it reads more (it widened between two
 * pages: data/message-list-shards.ts): the new partitions resume from where the one partition
 * did, so a message written to them since appears on a later page if it is older than those
 * listed already. Any other cursor is left as it is.
 */
function widenedPositions(ws: string, positions: unknown, inputs: ReturnType<typeof sources>, filter: MessageFilter): unknown {
  if (conversationOf(filter) || !Array.isArray(positions) || positions.length !== 1 || inputs.length === 1) return positions;
  const [last] = positions as unknown[];
  if (typeof last !== 'object' || last === null || typeof (last as Record<string, unknown>).GSI3SK !== 'string') return positions;
  const id = (last as Record<string, string>).GSI3SK;
  return inputs.map((input, shard) => (shard === 0 ? last : { ...messageKey(ws, id), GSI3PK: input.ExpressionAttributeValues[':pk'], GSI3SK: id }));
}

/**
 * The partitions a cursor was made over (at most MESSAGE_SHARDS; 1 for none or a malformed one): a
 * list reads at least those, more being always safe. A request admitted by the day's first
 * window reads all of them (data/rate-window-admission.ts), and its cursor goes on from them.
 */
function cursorShards(cursor: string | undefined): number {
  if (cursor === undefined) return 1;
  try {
    const positions: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    return Array.isArray(positions) ? Math.min(Math.max(positions.length, 1), MESSAGE_SHARDS) : 1;
  } catch {
    return 1;
  }
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
  positions = widenedPositions(ws, positions, inputs, filter);
  const valid =
    Array.isArray(positions) &&
    positions.length === inputs.length &&
    positions.every((p, i) => {
      if (p === null || p === 'done') return true;
      if (typeof p !== 'object' || Array.isArray(p)) return false;
      const key = p as Record<string, unknown>;
      if (typeof key[sortKey] !== 'string' || !UUID.test(key[sortKey])) return false;
      const message = messageKey(ws, key[sortKey]);
      return (
        Object.keys(key).length === 4 && key[partitionKey] === inputs[i].ExpressionAttributeValues[':pk'] && key.PK === message.PK && key.SK === message.SK
      );
    });
  return valid ? (positions as Positions) : undefined;
}

type ItemKey = { PK: string; SK: string };
const keyId = (key: Record<string, unknown>) => `${String(key.PK)}|${String(key.SK)}`;

/**
 * A page of the workspace's messages, newest first, by offset or from an opaque cursor (which
 * depends on the filter). `invalid_cursor` when the cursor is not one of this list's. `alsoRead`:
 * other items the caller needs, read in the call that reads the page's messages (one
 * BatchGetItem for both: issue 29), or on their own when the page reads none; those found are
 * `alsoFound`.
 */
export async function messagesPage(
  ws: string,
  filter: MessageFilter,
  page: { skip: number; take: number; cursor?: string },
  listShards: number,
  alsoRead: ItemKey[] = [],
): Promise<{ messages: Message[]; nextCursor: string | null; alsoFound: Record<string, unknown>[] } | 'invalid_cursor'> {
  const inputs = sources(ws, filter, Math.max(listShards, cursorShards(page.cursor)));
  const from = page.cursor === undefined ? undefined : decodeCursor(ws, page.cursor, inputs, filter);
  if (page.cursor !== undefined && !from) return 'invalid_cursor';
  const keep = checkedOnMessages(filter);
  let alsoFound: Record<string, unknown>[] | undefined;
  // Without `keep`, the page is read once, after the merge: the other items go with it.
  const hydrateWithOthers = async (entries: Record<string, unknown>[]) => {
    if (keep || !alsoRead.length) return hydrate(entries);
    const others = new Set(alsoRead.map(keyId));
    const items = await getMany([...entries.map((entry) => ({ PK: entry.PK as string, SK: entry.SK as string })), ...alsoRead]);
    alsoFound = items.filter((item) => others.has(keyId(item)));
    return items.filter((item) => !others.has(keyId(item))).map(restoredItem);
  };
  const { items, positions } = await mergedQuery(inputs, keyOf(filter), indexOf(filter).sortKey, {
    skip: from ? 0 : page.skip,
    take: page.take,
    from,
    hydrate: hydrateWithOthers,
    keep,
  });
  alsoFound ??= alsoRead.length ? await getMany(alsoRead) : [];
  return { messages: items as unknown as Message[], nextCursor: positions ? encodeCursor(positions) : null, alsoFound };
}
