import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#shared/data/table/client';
import { conditionally } from '#shared/data/table/conditions';

/** Scoped to workspace and endpoint, as the contract says; expires by TTL. */
const idempotencyKey = (ws: string, endpoint: string, key: string) => ({ PK: `WS#${ws}#IDEMPOTENCY#${endpoint}#${key}`, SK: 'IDEMPOTENCY' });

export interface IdempotencyScope {
  workspaceId: string;
  endpoint: string;
  key: string;
}

export interface IdempotencyRecord {
  fingerprint: string;
  state: 'in_flight' | 'done';
  resource_id: string;
  attempt: number;
  locked_until?: number;
  outcome?: unknown;
  expires_at: number;
}

const keyOf = (scope: IdempotencyScope) => idempotencyKey(scope.workspaceId, scope.endpoint, scope.key);

export async function readIdempotencyRecord(scope: IdempotencyScope): Promise<IdempotencyRecord | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keyOf(scope), ConsistentRead: true }));
  return Item as IdempotencyRecord | undefined;
}

/**
 * Writes the record in flight, only over exactly the record read (`seenAttempt`, or none):
 * of two racing attempts only one succeeds. False when another got there first.
 */
export const claimIdempotencyRecord = (scope: IdempotencyScope, record: IdempotencyRecord, seenAttempt: number | undefined): Promise<boolean> =>
  conditionally(
    db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...keyOf(scope), ...record },
        ConditionExpression: seenAttempt === undefined ? 'attribute_not_exists(PK)' : 'attempt = :seen',
        ...(seenAttempt !== undefined && { ExpressionAttributeValues: { ':seen': seenAttempt } }),
      }),
    ),
  );

export async function completeIdempotencyRecord(scope: IdempotencyScope, outcome: unknown): Promise<void> {
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keyOf(scope),
      UpdateExpression: 'SET #state = :done, outcome = :outcome REMOVE locked_until',
      ExpressionAttributeNames: { '#state': 'state' },
      ExpressionAttributeValues: { ':done': 'done', ':outcome': outcome },
    }),
  );
}

export async function unlockIdempotencyRecord(scope: IdempotencyScope): Promise<void> {
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keyOf(scope),
      UpdateExpression: 'SET locked_until = :unlocked',
      ExpressionAttributeValues: { ':unlocked': 0 },
    }),
  );
}
