import { countQuery } from '#shared/data/table/count';
import { getMany } from '#shared/data/table/pages';
import { queryAll } from '#shared/data/table/query-all';
import { keys, MESSAGE_SHARDS } from '#shared/data/keys';
import { mergedQuery, type Positions } from '#shared/data/table/merged-query';
import { indexes } from '#shared/data/table/table';
import { errors } from '#shared/errors';
import type { Pagination } from '#shared/pagination';
import { messageCounts } from '#shared/domain/messages/counters';
import { listView, OUTBOUND_STATUSES, type Direction, type Message, type MessageStatus } from '#shared/domain/messages/message';
import { campaignMessageCount } from '#shared/domain/messages/campaign-counts';

export interface MessageQuery {
  page: number;
  pageSize: number;
  status?: MessageStatus;
  phone?: string;
  direction?: Direction;
  campaign_id?: string;
  cursor?: string;
}

/** Filters DynamoDB evaluates on the index entries: the projected attributes (status is not projected, see shared/data/table/table.ts). */
function filterOf(query: MessageQuery) {
  const clauses: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const add = (attribute: 'direction' | 'campaign_id', value: string | undefined) => {
    if (value === undefined) return;
    clauses.push(`#${attribute} = :${attribute}`);
    names[`#${attribute}`] = attribute;
    values[`:${attribute}`] = value;
  };
  add('direction', query.direction);
  add('campaign_id', query.campaign_id);
  return clauses.length ? { FilterExpression: clauses.join(' AND '), ExpressionAttributeNames: names, values } : { values };
}

/** One descending query per list shard, or the conversation index when filtering by phone. */
function sources(ws: string, query: MessageQuery) {
  const { values, ...filter } = filterOf(query);
  if (query.phone) {
    const index = indexes.conversation;
    return [{ IndexName: index.indexName, KeyConditionExpression: `${index.partitionKey} = :pk`, ExpressionAttributeValues: { ':pk': keys.phoneMessages(ws, query.phone).GSI2PK, ...values }, ScanIndexForward: false, ...filter }];
  }
  const index = indexes.messageHistory;
  return Array.from({ length: MESSAGE_SHARDS }, (_, shard) => ({
    IndexName: index.indexName,
    KeyConditionExpression: `${index.partitionKey} = :pk`,
    ExpressionAttributeValues: { ':pk': keys.messageList(ws, shard).GSI3PK, ...values },
    ScanIndexForward: false,
    ...filter,
  }));
}

const indexOf = (query: MessageQuery) => (query.phone ? indexes.conversation : indexes.messageHistory);

const keyOf = (query: MessageQuery) => {
  const { partitionKey, sortKey } = indexOf(query);
  return (item: Record<string, unknown>) => ({ PK: item.PK, SK: item.SK, [partitionKey]: item[partitionKey], [sortKey]: item[sortKey] });
};

/** The messages behind index entries, read by key, in order. */
const hydrate = (entries: Record<string, unknown>[]) => getMany(entries.map((entry) => ({ PK: entry.PK as string, SK: entry.SK as string })));

/** `status` is not in the indexes: it is checked on the messages read. */
const hasStatus = (status: MessageStatus) => (message: Record<string, unknown>) => message.status === status;

/** Exact count for the filter: counters for status/direction/campaign, the (bounded) conversation for a phone. */
async function totalCount(ws: string, query: MessageQuery): Promise<number> {
  if (query.phone) {
    const [{ IndexName, KeyConditionExpression, ExpressionAttributeValues, FilterExpression, ExpressionAttributeNames }] = sources(ws, query);
    const input = { IndexName, KeyConditionExpression, ExpressionAttributeValues, FilterExpression, ExpressionAttributeNames };
    if (!query.status) return countQuery(input);
    // Status is not in the index: the (bounded) conversation's messages are read to count it.
    return (await hydrate(await queryAll(input))).filter(hasStatus(query.status)).length;
  }
  const inDirection = (status: MessageStatus) => !query.direction || (query.direction === 'inbound') === (status === 'received');
  if (query.campaign_id) {
    if (query.direction === 'inbound') return 0;
    return campaignMessageCount(ws, query.campaign_id, query.status);
  }
  const counts = await messageCounts(ws);
  const statuses = query.status ? [query.status] : ([...OUTBOUND_STATUSES, 'received'] as MessageStatus[]);
  return statuses.filter(inDirection).reduce((sum, status) => sum + counts[status], 0);
}

const encodeCursor = (positions: Positions) => Buffer.from(JSON.stringify(positions)).toString('base64url');

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const invalidCursor = () => errors.validation([{ field: 'cursor', message: 'Not a cursor from this list (it depends on the filters)' }]);

/** A cursor is only accepted if each position lies in the very partition its source reads: it never reaches another workspace. */
function decodeCursor(ws: string, cursor: string, inputs: ReturnType<typeof sources>, query: MessageQuery): Positions {
  let positions: unknown;
  try {
    positions = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  const { partitionKey, sortKey } = indexOf(query);
  const valid =
    Array.isArray(positions) &&
    positions.length === inputs.length &&
    positions.every((p, i) => {
      if (p === null || p === 'done') return true;
      if (typeof p !== 'object' || Array.isArray(p)) return false;
      const key = p as Record<string, unknown>;
      if (typeof key[sortKey] !== 'string' || !UUID.test(key[sortKey] as string)) return false;
      const message = keys.message(ws, key[sortKey] as string);
      return (
        Object.keys(key).length === 4 &&
        key[partitionKey] === inputs[i].ExpressionAttributeValues[':pk'] &&
        key.PK === message.PK &&
        key.SK === message.SK
      );
    });
  if (!valid) throw invalidCursor();
  return positions as Positions;
}

/** Newest first, offset pages or an opaque cursor; with a cursor, `page` is ignored. */
export async function listMessages(ws: string, query: MessageQuery): Promise<{ data: ReturnType<typeof listView>[]; pagination: Pagination }> {
  const inputs = sources(ws, query);
  const from = query.cursor ? decodeCursor(ws, query.cursor, inputs, query) : undefined;
  const page = from ? 1 : query.page;
  const [{ items, positions }, total] = await Promise.all([
    mergedQuery(inputs, keyOf(query), indexOf(query).sortKey, {
      skip: from ? 0 : (page - 1) * query.pageSize,
      take: query.pageSize,
      from,
      hydrate,
      keep: query.status && hasStatus(query.status),
    }),
    totalCount(ws, query),
  ]);
  return {
    data: (items as unknown as Message[]).map(listView),
    pagination: {
      page,
      pageSize: query.pageSize,
      totalCount: total,
      hasMore: positions !== null,
      nextCursor: positions ? encodeCursor(positions) : null,
    },
  };
}
