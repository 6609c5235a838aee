import { DeleteCommand, GetCommand, UpdateCommand } from '#shared/data/table/commands';
import { batchWrite } from '#shared/data/table/batch-write';
import { db, tableName } from '#shared/data/table/client';
import { conditionally, isConditionFailure, setFields } from '#shared/data/table/conditions';
import { queryAll } from '#shared/data/table/query-all';
import { indexes } from '#shared/data/table/table';
import { transact } from '#shared/data/table/transact';

/** A subscriber's webhook subscription; its delivery log lives in the same partition (shared/data/delivery.ts). */
export const subscriptionPartition = (ws: string, id: string) => `WS#${ws}#WEBHOOK#${id}`;
const subscriptionKey = (ws: string, id: string) => ({ PK: subscriptionPartition(ws, id), SK: 'WEBHOOK' });
const subscriptionListEntry = (ws: string, id?: string) => ({ GSI1PK: `WS#${ws}#WEBHOOKS`, ...(id && { GSI1SK: id }) });

export interface Subscription {
  id: string;
  workspace_id: string;
  url: string;
  events: string[];
  is_active: boolean;
  /** Current secret first; a previous one with the time it stops signing. */
  secrets: { secret: string; until?: string }[];
  /** Set by the first failed delivery after a success; five days of it deactivate the endpoint. */
  failing_since: string | null;
  created_at: string;
  updated_at: string;
}

export async function insertSubscription(subscription: Subscription): Promise<void> {
  const ws = subscription.workspace_id;
  await transact([
    {
      Put: {
        TableName: tableName(),
        Item: { ...subscriptionKey(ws, subscription.id), ...subscriptionListEntry(ws, subscription.id), ...subscription },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
  ]);
}

export async function getSubscription(ws: string, id: string): Promise<Subscription | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: subscriptionKey(ws, id), ConsistentRead: true }));
  return Item as Subscription | undefined;
}

/** A workspace's subscriptions are few: one query, newest first. */
export function workspaceSubscriptions(ws: string): Promise<Subscription[]> {
  return queryAll<Subscription>({
    IndexName: indexes.byParent.indexName,
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': subscriptionListEntry(ws).GSI1PK },
    ScanIndexForward: false,
  });
}

/**
 * Sets fields of an existing subscription and returns it as written; undefined when it does not
 * exist or, with `currentSecret`, when its current secret is no longer that one.
 */
export async function updateSubscription(ws: string, id: string, set: Record<string, unknown>, currentSecret?: string): Promise<Subscription | undefined> {
  const { expression, names, values } = setFields(set);
  try {
    const { Attributes } = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: subscriptionKey(ws, id),
        UpdateExpression: expression,
        // A rotation only replaces the secret it read, so concurrent rotations cannot hand out a secret that never signs.
        ConditionExpression: currentSecret ? 'attribute_exists(PK) AND secrets[0].secret = :current' : 'attribute_exists(PK)',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: { ...values, ...(currentSecret && { ':current': currentSecret }) },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return Attributes as Subscription;
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
}

/** Deletes the subscription and its delivery log; false when there was none. */
export async function deleteSubscriptionRecords(ws: string, id: string): Promise<boolean> {
  const deleted = await conditionally(
    db().send(new DeleteCommand({ TableName: tableName(), Key: subscriptionKey(ws, id), ConditionExpression: 'attribute_exists(PK)' })),
  );
  if (!deleted) return false;
  const log = await queryAll<{ PK: string; SK: string }>({
    KeyConditionExpression: 'PK = :pk',
    ExpressionAttributeValues: { ':pk': subscriptionPartition(ws, id) },
    ProjectionExpression: 'PK, SK',
  });
  await batchWrite(log.map(({ PK, SK }) => ({ DeleteRequest: { Key: { PK, SK } } })));
  return true;
}
