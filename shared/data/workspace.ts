import { narrowListCreated } from '#shared/data/message-list-shards';
import { DeleteCommand, GetCommand, UpdateCommand } from '#shared/data/table/commands';
import { db, tableName } from '#shared/data/table/client';
import { conditionally, isConditionFailure, setFields } from '#shared/data/table/conditions';
import { queryAll } from '#shared/data/table/query-all';
import { indexes } from '#shared/data/table/table';
import { failedConditions, transact, type TransactItem } from '#shared/data/table/transact';
import { accountClaimedWithNumber } from '#shared/data/account-claim';
import { routeClaimed } from '#shared/data/business-number';
import type { Onboarding } from '#shared/records/onboarding';
import type { Plan, Workspace, WorkspaceErasure } from '#shared/records/workspace';

/** A workspace, with the count of its active API keys. */
const workspaceKey = (ws: string) => ({ PK: `WS#${ws}`, SK: 'WORKSPACE' });
const workspaceListEntry = (ws?: string) => ({ GSI1PK: 'WORKSPACES', ...(ws && { GSI1SK: ws }) });

const toWorkspace = (item: Record<string, unknown>): Workspace => ({
  id: item.id as string,
  name: item.name as string,
  plan: item.plan as Plan,
  ...(typeof item.phone_number_id === 'string' && { phone_number_id: item.phone_number_id, waba_id: item.waba_id as string }),
  ...(typeof item.default_number_id === 'string' && { default_number_id: item.default_number_id }),
  ...(Array.isArray(item.stop_words) && { stop_words: item.stop_words as string[] }),
  ...(typeof item.rate_limit === 'number' && { rate_limit: item.rate_limit }),
  ...(item.suspended === true && { suspended: true }),
  ...(typeof item.suspended_at === 'string' && { suspended_at: item.suspended_at }),
  ...(typeof item.onboarding === 'object' && item.onboarding !== null && { onboarding: item.onboarding as Onboarding }),
  ...(item.status === 'deleting' && { status: 'deleting' as const, erasure: item.erasure as WorkspaceErasure }),
  created_at: item.created_at as string,
});

/**
 * Stores the workspace and, when it is created with a number, claims the number and its business
 * account (for the operator, who creates workspaces: contract §22) in one transaction, so a
 * platform number always routes to exactly one workspace. The id is new, so only a claim can fail.
 */
export async function insertWorkspace(workspace: Workspace): Promise<'inserted' | 'account_in_use' | 'number_in_use'> {
  const claims: TransactItem[] =
    workspace.phone_number_id && workspace.waba_id
      ? [accountClaimedWithNumber(workspace.waba_id, workspace.id, 'operator', workspace.created_at), routeClaimed(workspace.phone_number_id, workspace.id)]
      : [];
  const items: TransactItem[] = [
    {
      Put: {
        TableName: tableName(),
        Item: { ...workspaceKey(workspace.id), ...workspaceListEntry(workspace.id), ...workspace, active_keys: 0 },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
    // Its message list starts on one partition (data/message-list-shards.ts).
    narrowListCreated(workspace.id),
    // A workspace created without a number (for onboarding) claims its first one when it is connected.
    ...claims,
  ];
  try {
    await transact(items);
    return 'inserted';
  } catch (error) {
    const failed = failedConditions(error);
    if (!failed) throw error;
    return failed.includes(2) ? 'account_in_use' : 'number_in_use';
  }
}

export async function getWorkspace(id: string): Promise<Workspace | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: workspaceKey(id) }));
  return Item ? toWorkspace(Item) : undefined;
}

export async function allWorkspaces(): Promise<Workspace[]> {
  const items = await queryAll({
    IndexName: indexes.byParent.indexName,
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': workspaceListEntry().GSI1PK },
  });
  return items.map(toWorkspace);
}

export type WorkspaceSettings = Partial<
  Pick<Workspace, 'plan' | 'stop_words' | 'rate_limit' | 'default_number_id' | 'suspended' | 'suspended_at' | 'onboarding'>
>;

/** Sets settings (plan, stop words, suspension…) of an existing workspace and returns it; undefined when there is none. */
export async function updateSettings(id: string, settings: WorkspaceSettings): Promise<Workspace | undefined> {
  const { expression, names, values } = setFields(settings);
  try {
    const { Attributes } = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: workspaceKey(id),
        UpdateExpression: expression,
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
      }),
    );
    return toWorkspace(Attributes!);
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
}

/** A workspace created without a number gets its first one, as an item of the number's own transaction (data/business-number.ts). */
export const firstNumberSet = (ws: string, phoneNumberId: string, wabaId: string): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key: workspaceKey(ws),
    UpdateExpression: 'SET phone_number_id = :number, waba_id = :waba',
    ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(phone_number_id)',
    ExpressionAttributeValues: { ':number': phoneNumberId, ':waba': wabaId },
  },
});

/** One more active key, as an item of the key's own transaction; the workspace must exist. */
export const activeKeyAdded = (ws: string): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key: workspaceKey(ws),
    UpdateExpression: 'ADD active_keys :one',
    ConditionExpression: 'attribute_exists(PK)',
    ExpressionAttributeValues: { ':one': 1 },
  },
});

/** One active key fewer, only while another remains: the condition that keeps the last key (contract §3). */
export const activeKeyRemoved = (ws: string): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key: workspaceKey(ws),
    UpdateExpression: 'ADD active_keys :minusOne',
    ConditionExpression: 'active_keys > :one',
    ExpressionAttributeValues: { ':minusOne': -1, ':one': 1 },
  },
});

/**
 * Marks the workspace `deleting` with its erasure's starting point; false when there is no such
 * workspace or it is being erased already (the erasure under way is kept).
 */
export async function beginErasure(id: string, erasure: WorkspaceErasure): Promise<boolean> {
  const write = db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: workspaceKey(id),
      UpdateExpression: 'SET #status = :deleting, erasure = :erasure',
      ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(#status)',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':deleting': 'deleting', ':erasure': erasure },
    }),
  );
  return conditionally(write);
}

/** Records an erasure's progress, only over the progress it was computed from (`version` one less); false when another job moved it first. */
export async function recordErasure(id: string, erasure: WorkspaceErasure): Promise<boolean> {
  const write = db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: workspaceKey(id),
      UpdateExpression: 'SET erasure = :erasure',
      ConditionExpression: '#status = :deleting AND erasure.version = :seen',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':deleting': 'deleting', ':erasure': erasure, ':seen': erasure.version - 1 },
    }),
  );
  return conditionally(write);
}

/** The erasure's last write: the workspace item itself, and with it its entry in the workspace list. */
export async function removeErasedWorkspace(id: string): Promise<void> {
  const write = db().send(
    new DeleteCommand({
      TableName: tableName(),
      Key: workspaceKey(id),
      ConditionExpression: '#status = :deleting',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':deleting': 'deleting' },
    }),
  );
  await conditionally(write);
}

/** The workspace item's key, which the erasure's scan leaves for last (it holds the progress). */
export const workspaceItemKey = workspaceKey;
