import { GetCommand, PutCommand, UpdateCommand } from '#shared/data/table/commands';
import { db, tableName } from '#shared/data/table/client';
import { conditionally } from '#shared/data/table/conditions';
import { SKIPPED_SORT_KEYS } from '#shared/data/table/stream-filters';

/** A key is remembered for 24 hours from its last claim (docs/messaging.md), then expires by TTL. */
const TTL_SECONDS = 24 * 3600;
/** Scoped to workspace and endpoint, as the contract says. */
const idempotencyKey = (ws: string, endpoint: string, key: string) => ({ PK: `WS#${ws}#IDEMPOTENCY#${endpoint}#${key}`, SK: SKIPPED_SORT_KEYS.idempotency });

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

/** What an attempt writes when it claims the key; the record is then in flight. */
export type IdempotencyClaim = Pick<IdempotencyRecord, 'fingerprint' | 'resource_id' | 'attempt' | 'locked_until'>;

/**
 * Writes the record in flight at `now` (Unix seconds), only over exactly the record read
 * (`seen`, or none): of two racing attempts only one succeeds. False when another got there first.
 */
export const claimIdempotencyRecord = (scope: IdempotencyScope, claim: IdempotencyClaim, seen: IdempotencyRecord | undefined, now: number): Promise<boolean> =>
  conditionally(
    db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...keyOf(scope), ...claim, state: 'in_flight', expires_at: now + TTL_SECONDS },
        ConditionExpression: seen ? 'attempt = :seen' : 'attribute_not_exists(PK)',
        ...(seen && { ExpressionAttributeValues: { ':seen': seen.attempt } }),
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
