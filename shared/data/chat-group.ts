import { GetCommand, PutCommand } from '#shared/data/table/commands';
import { db, tableName } from '#shared/data/table/client';
import { queryPage } from '#shared/data/table/pages';
import { indexes } from '#shared/data/table/table';
import { transact, type TransactItem } from '#shared/data/table/transact';
import { isConditionFailure } from '#shared/data/table/conditions';
import { streamItemOf, type StreamImage } from '#shared/data/table/stream-image';
import { STREAMED_SORT_KEYS, SKIPPED_SORT_KEYS } from '#shared/data/table/stream-filters';
import { counterKey, counterMove, readListCount } from '#shared/data/counter';
import { CHAT_GROUP_LIMITS, type ChatGroup } from '#shared/records/chat-group';

/**
 * A chat group (contract §23): one item, versioned, with its participants and join requests in it
 * (the platform caps a group at 8 participants), in the workspace's list; two lookups by the
 * platform's ids (its creation request's, then its group id), which its webhooks name; the live
 * groups of each number counted, so the platform's 10,000 is checked in the creating transaction.
 */
const CHAT_GROUP = STREAMED_SORT_KEYS.chatGroup;
const REF = SKIPPED_SORT_KEYS.chatGroupRef;
export const chatGroupKey = (ws: string, id: string) => ({ PK: `WS#${ws}#CHAT_GROUP#${id}`, SK: CHAT_GROUP });
const listEntry = (ws: string, id?: string) => ({ GSI1PK: `WS#${ws}#CHAT_GROUPS`, ...(id && { GSI1SK: id }) });
type RefKind = 'request' | 'platform';
const refKey = (ws: string, kind: RefKind, value: string) => ({ PK: `WS#${ws}#CHAT_GROUP_REF#${kind}#${value}`, SK: REF });
const numberCounter = (numberId: string) => `chat_groups#${numberId}`;
const LIST_COUNTER = 'chat_groups';

type Stored = ChatGroup & { version: number };

const fields = (item: Record<string, unknown>): Stored => {
  const { PK: _pk, SK: _sk, GSI1PK: _gpk, GSI1SK: _gsk, ...group } = item;
  return group as unknown as Stored;
};

const refPut = (ws: string, kind: RefKind, value: string, groupId: string): TransactItem => ({
  Put: { TableName: tableName(), Item: { ...refKey(ws, kind, value), group_id: groupId }, ConditionExpression: 'attribute_not_exists(PK)' },
});

const numberSlot = (ws: string, numberId: string, delta: 1 | -1): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key: counterKey(ws, numberCounter(numberId)),
    UpdateExpression: 'ADD #count :delta',
    // Taking a place: only below the platform's limit, so the check and the count are one write.
    ...(delta === 1 && { ConditionExpression: 'attribute_not_exists(#count) OR #count < :max' }),
    ExpressionAttributeNames: { '#count': 'count' },
    ExpressionAttributeValues: { ':delta': delta, ...(delta === 1 && { ':max': CHAT_GROUP_LIMITS.groupsPerNumber }) },
  },
});

const versioned = (
  current: Stored,
): Pick<NonNullable<TransactItem['Put']>, 'ConditionExpression' | 'ExpressionAttributeNames' | 'ExpressionAttributeValues'> => ({
  ConditionExpression: '#version = :version',
  ExpressionAttributeNames: { '#version': 'version' },
  ExpressionAttributeValues: { ':version': current.version },
});

const groupPut = (current: Stored, next: ChatGroup): TransactItem => ({
  Put: {
    TableName: tableName(),
    Item: { ...chatGroupKey(next.workspace_id, next.id), ...listEntry(next.workspace_id, next.id), ...next, version: current.version + 1 },
    ...versioned(current),
  },
});

/** Runs a transaction; false when one of its conditions did not hold. */
async function transactIf(items: TransactItem[]): Promise<boolean> {
  try {
    await transact(items);
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** Stores a group before the platform is asked for it; false when its number already has the platform's maximum of live groups. */
export async function insertChatGroup(group: ChatGroup): Promise<Stored | undefined> {
  const ws = group.workspace_id;
  const stored = { ...group, version: 1 };
  const inserted = await transactIf([
    {
      Put: {
        TableName: tableName(),
        Item: { ...chatGroupKey(ws, group.id), ...listEntry(ws, group.id), ...stored },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
    counterMove(ws, LIST_COUNTER, 1),
    numberSlot(ws, group.business_number_id, 1),
  ]);
  return inserted ? stored : undefined;
}

/** The platform's id of the group's creation request, with the lookup its lifecycle webhook is found by. */
export async function recordCreationRequest(current: Stored, requestId: string): Promise<Stored> {
  const next = { ...current, request_id: requestId };
  await transact([groupPut(current, next), refPut(current.workspace_id, 'request', requestId, current.id)]);
  return { ...next, version: current.version + 1 };
}

/** Takes back a group the platform refused to create: it never was, so it leaves the list and gives back its place. */
export async function dropChatGroup(current: Stored): Promise<void> {
  const ws = current.workspace_id;
  await transact([
    { Delete: { TableName: tableName(), Key: chatGroupKey(ws, current.id), ...versioned(current) } },
    counterMove(ws, LIST_COUNTER, -1),
    numberSlot(ws, current.business_number_id, -1),
  ]);
}

export async function getChatGroup(ws: string, id: string, consistent = false): Promise<Stored | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: chatGroupKey(ws, id), ConsistentRead: consistent }));
  return Item ? fields(Item) : undefined;
}

/** The group a platform webhook names, by its creation request's id or its group id. */
export async function chatGroupByRef(ws: string, kind: RefKind, value: string): Promise<Stored | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: refKey(ws, kind, value), ConsistentRead: true }));
  return Item ? getChatGroup(ws, String(Item.group_id), true) : undefined;
}

/** Records the platform's group id of a created group, so its later webhooks find it (idempotent). */
export async function rememberPlatformGroupId(ws: string, platformGroupId: string, groupId: string): Promise<void> {
  await db().send(new PutCommand({ TableName: tableName(), Item: { ...refKey(ws, 'platform', platformGroupId), group_id: groupId } }));
}

/**
 * Replaces the group with `next` if nobody wrote it since `current` was read (optimistic
 * locking); a group leaving the live ones (failed or deleted) gives back its number's place.
 * False when another write came first: the caller reads again and decides again.
 */
export async function replaceChatGroup(current: Stored, next: ChatGroup): Promise<boolean> {
  const leaves = (current.status === 'creating' || current.status === 'active') && (next.status === 'failed' || next.status === 'deleted');
  return transactIf(leaves ? [groupPut(current, next), numberSlot(current.workspace_id, current.business_number_id, -1)] : [groupPut(current, next)]);
}

/** A page of the workspace's groups, newest first, with their exact count. */
export async function chatGroupsPage(ws: string, page: number, pageSize: number): Promise<{ groups: ChatGroup[]; total: number }> {
  const query = {
    IndexName: indexes.byParent.indexName,
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': listEntry(ws).GSI1PK },
    ScanIndexForward: false,
  };
  const [items, total] = await Promise.all([queryPage(query, page, pageSize), readListCount(ws, LIST_COUNTER)]);
  return { groups: items.map(fields), total };
}

export const chatGroupFromStreamImage = (image: StreamImage | undefined): ChatGroup | undefined => {
  const item = streamItemOf(image, (key) => key.SK === CHAT_GROUP);
  return item && fields(item);
};
