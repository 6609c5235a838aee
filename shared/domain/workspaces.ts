import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#shared/data/table/client';
import { keys } from '#shared/data/keys';
import { queryAll } from '#shared/data/table/query-all';
import { indexes } from '#shared/data/table/table';
import { newId } from '#shared/ids';
import { nowIso } from '#shared/time';

export const PLANS = ['starter', 'growth', 'pro'] as const;
export type Plan = (typeof PLANS)[number];

export interface Workspace {
  id: string;
  name: string;
  plan: Plan;
  phone_number_id: string;
  waba_id: string;
  created_at: string;
}

const toWorkspace = (item: Record<string, unknown>): Workspace => ({
  id: item.id as string,
  name: item.name as string,
  plan: item.plan as Plan,
  phone_number_id: item.phone_number_id as string,
  waba_id: item.waba_id as string,
  created_at: item.created_at as string,
});

/**
 * Creates the workspace and claims its phone_number_id in one transaction, so a
 * platform number always routes to exactly one workspace.
 */
export async function createWorkspace(input: { name: string; plan: Plan; phone_number_id: string; waba_id: string }): Promise<Workspace> {
  const workspace: Workspace = { id: newId(), ...input, created_at: nowIso() };
  await db().send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Put: {
            TableName: tableName(),
            Item: { ...keys.workspace(workspace.id), ...keys.workspaceList(workspace.id), ...workspace, active_keys: 0 },
            ConditionExpression: 'attribute_not_exists(PK)',
          },
        },
        {
          Put: {
            TableName: tableName(),
            Item: { ...keys.phoneNumber(workspace.phone_number_id), workspace_id: workspace.id },
            ConditionExpression: 'attribute_not_exists(PK)',
          },
        },
      ],
    }),
  );
  return workspace;
}

export async function getWorkspace(id: string): Promise<Workspace | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.workspace(id) }));
  return Item ? toWorkspace(Item) : undefined;
}

/** Workspaces change rarely (plan, settings); a short per-process cache saves a read on every request and every message. */
const WORKSPACE_CACHE_MS = 10_000;
const workspaceCache = new Map<string, { workspace: Workspace; until: number }>();
/** A number's workspace never changes once claimed, so found routes are kept for the process's life. */
const phoneNumberRoutes = new Map<string, string>();

export async function cachedWorkspace(id: string): Promise<Workspace | undefined> {
  const hit = workspaceCache.get(id);
  if (hit && hit.until > Date.now()) return hit.workspace;
  const workspace = await getWorkspace(id);
  if (workspace) workspaceCache.set(id, { workspace, until: Date.now() + WORKSPACE_CACHE_MS });
  return workspace;
}

/** Routes a platform webhook to its workspace by the number it was sent to. */
export async function findWorkspaceByPhoneNumberId(phoneNumberId: string): Promise<Workspace | undefined> {
  let workspaceId = phoneNumberRoutes.get(phoneNumberId);
  if (!workspaceId) {
    const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.phoneNumber(phoneNumberId) }));
    if (!Item) return undefined;
    workspaceId = Item.workspace_id as string;
    phoneNumberRoutes.set(phoneNumberId, workspaceId);
  }
  return cachedWorkspace(workspaceId);
}

export async function listWorkspaces(): Promise<Workspace[]> {
  const items = await queryAll({
    IndexName: indexes.byParent.indexName,
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': keys.workspaceList('').GSI1PK },
  });
  return items.map(toWorkspace);
}

export async function setPlan(id: string, plan: Plan): Promise<Workspace> {
  const { Attributes } = await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.workspace(id),
      UpdateExpression: 'SET #plan = :plan',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeNames: { '#plan': 'plan' },
      ExpressionAttributeValues: { ':plan': plan },
      ReturnValues: 'ALL_NEW',
    }),
  );
  return toWorkspace(Attributes!);
}
