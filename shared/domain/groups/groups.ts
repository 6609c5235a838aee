import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { batchWrite } from '#shared/data/table/batch-write';
import { db, tableName } from '#shared/data/table/client';
import { counterNames, keys } from '#shared/data/keys';
import { queryPage, readCounter } from '#shared/data/table/pages';
import { pagination } from '#shared/pagination';
import { indexes } from '#shared/data/table/table';
import { failedConditions, transact } from '#shared/data/table/transact';
import { errors } from '#shared/errors';
import { newId } from '#shared/ids';
import { nowIso } from '#shared/time';

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

const groupsCounter = (ws: string) => keys.counter(ws, counterNames.groups);
const counterDelta = (ws: string, delta: number) => ({
  Update: { TableName: tableName(), Key: groupsCounter(ws), UpdateExpression: 'ADD #count :delta', ExpressionAttributeNames: { '#count': 'count' }, ExpressionAttributeValues: { ':delta': delta } },
});

export async function createGroup(ws: string, input: { name: string; description?: string | null }): Promise<Group> {
  const group = { id: newId(), name: input.name, description: input.description ?? null, count: 0, created_at: nowIso() };
  await transact([
    { Put: { TableName: tableName(), Item: { ...keys.group(ws, group.id), ...keys.groupList(ws, group.id), ...group }, ConditionExpression: 'attribute_not_exists(PK)' } },
    counterDelta(ws, 1),
  ]);
  return toGroup(group);
}

export async function getGroup(ws: string, id: string, consistent = false): Promise<Group | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.group(ws, id), ConsistentRead: consistent }));
  return Item ? toGroup(Item) : undefined;
}

export async function requireGroup(ws: string, id: string, consistent = false): Promise<Group> {
  const group = await getGroup(ws, id, consistent);
  if (!group) throw errors.notFound('Group');
  return group;
}

export async function listGroups(ws: string, page: number, pageSize: number) {
  const [items, totalCount] = await Promise.all([
    queryPage(
      {
        IndexName: indexes.byParent.indexName,
        KeyConditionExpression: 'GSI1PK = :pk',
        ExpressionAttributeValues: { ':pk': keys.groupList(ws).GSI1PK },
        ScanIndexForward: false,
      },
      page,
      pageSize,
    ),
    readCounter(groupsCounter(ws)),
  ]);
  return { data: items.map(toGroup), pagination: pagination(page, pageSize, totalCount) };
}

/**
 * Deletes the group (so no member can be added any more), then its memberships on both sides.
 * Contacts stay. Memberships left by an interrupted delete belong to no group and are never read.
 */
export async function deleteGroup(ws: string, id: string): Promise<void> {
  try {
    await transact([{ Delete: { TableName: tableName(), Key: keys.group(ws, id), ConditionExpression: 'attribute_exists(PK)' } }, counterDelta(ws, -1)]);
  } catch (error) {
    if (failedConditions(error)) throw errors.notFound('Group');
    throw error;
  }
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :member)',
        ExpressionAttributeValues: { ':pk': keys.group(ws, id).PK, ':member': 'MEMBER#' },
        ProjectionExpression: 'SK',
        ExclusiveStartKey,
      }),
    );
    const contactIds = (page.Items ?? []).map((item) => (item.SK as string).slice('MEMBER#'.length));
    await batchWrite(
      contactIds.flatMap((contactId) => [
        { DeleteRequest: { Key: keys.groupMember(ws, id, contactId) } },
        { DeleteRequest: { Key: keys.contactGroup(ws, contactId, id) } },
      ]),
    );
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
}
