import { GetCommand, QueryCommand } from '#shared/data/table/commands';
import { batchWrite } from '#shared/data/table/batch-write';
import { db, tableName } from '#shared/data/table/client';
import { conditionally } from '#shared/data/table/conditions';
import { getMany, queryPage } from '#shared/data/table/pages';
import { queryAll } from '#shared/data/table/query-all';
import { indexes } from '#shared/data/table/table';
import { transact } from '#shared/data/table/transact';
import { applyUnits, type Unit } from '#shared/data/table/units';
import { contactKey, contactMustExist } from '#shared/data/contact';
import { counterMove, counterNames, readListCount } from '#shared/data/counter';

/**
 * A group and its memberships. A membership is two items: the group's side (to list members)
 * and the contact's side, in the contact's collection (to leave groups when the contact goes).
 */
export const groupKey = (ws: string, id: string) => ({ PK: `WS#${ws}#GROUP#${id}`, SK: 'GROUP' });
const groupListEntry = (ws: string, id?: string) => ({ GSI1PK: `WS#${ws}#GROUPS`, ...(id && { GSI1SK: id }) });
const MEMBER = 'MEMBER#';
const memberKey = (ws: string, groupId: string, contactId: string) => ({ PK: groupKey(ws, groupId).PK, SK: `${MEMBER}${contactId}` });
/** The contact's side of a membership; its SK prefix is how a contact's collection tells its groups apart. */
export const CONTACT_GROUP = 'GROUP#';
const contactGroupKey = (ws: string, contactId: string, groupId: string) => ({ PK: contactKey(ws, contactId).PK, SK: `${CONTACT_GROUP}${groupId}` });

export interface Group {
  id: string;
  name: string;
  description: string | null;
  contacts_count: number;
  created_at: string;
}

/** The live member count is the group item's `count`, moved in the same transactions as memberships. */
const toGroup = (item: Record<string, unknown>): Group => ({
  id: item.id as string,
  name: item.name as string,
  description: (item.description as string | null) ?? null,
  contacts_count: Number(item.count ?? 0),
  created_at: item.created_at as string,
});

const memberIdOf = (item: { SK: string }) => item.SK.slice(MEMBER.length);

export async function insertGroup(ws: string, group: Omit<Group, 'contacts_count'>): Promise<Group> {
  const item = { ...group, count: 0 };
  await transact([
    {
      Put: {
        TableName: tableName(),
        Item: { ...groupKey(ws, group.id), ...groupListEntry(ws, group.id), ...item },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
    counterMove(ws, counterNames.groups, 1),
  ]);
  return toGroup(item);
}

export async function getGroup(ws: string, id: string, consistent = false): Promise<Group | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: groupKey(ws, id), ConsistentRead: consistent }));
  return Item ? toGroup(Item) : undefined;
}

/** Which of these groups exist, in the order asked. */
export const groupsAmong = async (ws: string, ids: string[]): Promise<Group[]> => (await getMany(ids.map((id) => groupKey(ws, id)))).map(toGroup);

/** A page of the workspace's groups, newest first, with the exact count from the groups counter. */
export async function groupsPage(ws: string, page: number, pageSize: number): Promise<{ groups: Group[]; total: number }> {
  const query = {
    IndexName: indexes.byParent.indexName,
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': groupListEntry(ws).GSI1PK },
    ScanIndexForward: false,
  };
  const [items, total] = await Promise.all([queryPage(query, page, pageSize), readListCount(ws, counterNames.groups)]);
  return { groups: items.map(toGroup), total };
}

/** Deletes the group item with its count; false when there was none. */
export async function deleteGroupItem(ws: string, id: string): Promise<boolean> {
  return conditionally(
    transact([
      { Delete: { TableName: tableName(), Key: groupKey(ws, id), ConditionExpression: 'attribute_exists(PK)' } },
      counterMove(ws, counterNames.groups, -1),
    ]),
  );
}

const membersQuery = (ws: string, groupId: string) => ({
  KeyConditionExpression: 'PK = :pk AND begins_with(SK, :member)',
  ExpressionAttributeValues: { ':pk': groupKey(ws, groupId).PK, ':member': MEMBER },
});

/** Every member's contact id (the audience of a launch). */
export async function allMemberIds(ws: string, groupId: string): Promise<string[]> {
  return (await queryAll<{ SK: string }>({ ...membersQuery(ws, groupId), ProjectionExpression: 'SK' })).map(memberIdOf);
}

/** Page `page` of a group's members' contact ids, newest contact first. */
export async function memberIdsPage(ws: string, groupId: string, page: number, pageSize: number): Promise<string[]> {
  return (await queryPage<{ SK: string }>({ ...membersQuery(ws, groupId), ScanIndexForward: false }, page, pageSize)).map(memberIdOf);
}

/** Which of these contacts are members of the group. */
export async function membersAmong(ws: string, groupId: string, contactIds: string[]): Promise<Set<string>> {
  return new Set((await getMany<{ SK: string }>(contactIds.map((id) => memberKey(ws, groupId, id)))).map(memberIdOf));
}

/**
 * Removes every membership of a deleted group, page by page, both sides. Memberships left by an
 * interrupted run belong to no group and are never read.
 */
export async function deleteAllMemberships(ws: string, groupId: string): Promise<void> {
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await db().send(new QueryCommand({ TableName: tableName(), ...membersQuery(ws, groupId), ProjectionExpression: 'SK', ExclusiveStartKey }));
    const contactIds = (page.Items ?? []).map((item) => memberIdOf(item as { SK: string }));
    await batchWrite(
      contactIds.flatMap((contactId) => [
        { DeleteRequest: { Key: memberKey(ws, groupId, contactId) } },
        { DeleteRequest: { Key: contactGroupKey(ws, contactId, groupId) } },
      ]),
    );
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
}

/**
 * A new membership (both sides) moving the group's count, idempotent: a repeat fails its
 * condition instead of counting twice. The contact must exist (its own check item).
 */
const joinUnit = (ws: string, groupId: string, contactId: string): Unit => ({
  items: [
    { Put: { TableName: tableName(), Item: memberKey(ws, groupId, contactId), ConditionExpression: 'attribute_not_exists(PK)' } },
    { Put: { TableName: tableName(), Item: contactGroupKey(ws, contactId, groupId) } },
    contactMustExist(ws, contactId),
  ],
  counters: [{ key: groupKey(ws, groupId), delta: 1, mustExist: true }],
});

/**
 * A membership's removal (both sides) moving the group's count, idempotent like `joinUnit`: the
 * side the caller read it from (`readFrom`) must still exist, so a repeat fails instead of counting twice.
 */
export const leaveUnit = (ws: string, groupId: string, contactId: string, readFrom: 'group' | 'contact'): Unit => {
  const [conditioned, other] =
    readFrom === 'group'
      ? [memberKey(ws, groupId, contactId), contactGroupKey(ws, contactId, groupId)]
      : [contactGroupKey(ws, contactId, groupId), memberKey(ws, groupId, contactId)];
  return {
    items: [
      { Delete: { TableName: tableName(), Key: conditioned, ConditionExpression: 'attribute_exists(PK)' } },
      { Delete: { TableName: tableName(), Key: other } },
    ],
    counters: [{ key: groupKey(ws, groupId), delta: -1, mustExist: true }],
  };
};

/** Adds the contacts to the group, in as few transactions as fit: how many memberships this call created (a repeat, or a contact deleted meanwhile, adds none). */
export const joinGroup = (ws: string, groupId: string, contactIds: string[]): Promise<number> =>
  applyUnits(contactIds.map((contactId) => joinUnit(ws, groupId, contactId)));

/** Removes the contacts (members read from the group's side) from the group: how many memberships this call removed. */
export const leaveGroup = (ws: string, groupId: string, contactIds: string[]): Promise<number> =>
  applyUnits(contactIds.map((contactId) => leaveUnit(ws, groupId, contactId, 'group')));
