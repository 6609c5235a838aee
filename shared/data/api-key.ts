import { GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '#shared/data/table/commands';
import { db, tableName } from '#shared/data/table/client';
import { conditionally } from '#shared/data/table/conditions';
import { queryAll } from '#shared/data/table/query-all';
import { indexes } from '#shared/data/table/table';
import { failedConditions } from '#shared/data/table/transact';
import { activeKeyAdded, activeKeyRemoved } from '#shared/data/workspace';
import type { ApiKey } from '#shared/records/api-key';

/** An API key is found by the SHA-256 of its secret: one strongly consistent GetItem per request. */
export const apiKeyKey = (hash: string) => ({ PK: `API_KEY#${hash}`, SK: 'API_KEY' });
/** Active keys of a workspace, newest first (ids are UUIDv7, so they sort by creation time); revoked keys leave it (sparse). */
const activeKeysEntry = (ws: string, id?: string) => ({ GSI1PK: `WS#${ws}#API_KEYS`, ...(id && { GSI1SK: id }) });

/** Stores a key and counts it on its workspace, in one transaction; false when the workspace does not exist. */
export function insertKey(hash: string, key: ApiKey): Promise<boolean> {
  return conditionally(
    db().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: tableName(),
              Item: { ...apiKeyKey(hash), ...activeKeysEntry(key.workspace_id, key.id), ...key },
              ConditionExpression: 'attribute_not_exists(PK)',
            },
          },
          activeKeyAdded(key.workspace_id),
        ],
      }),
    ),
  );
}

export function activeKeys(ws: string): Promise<ApiKey[]> {
  return queryAll<ApiKey>({
    IndexName: indexes.byParent.indexName,
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': activeKeysEntry(ws).GSI1PK },
    ScanIndexForward: false,
  });
}

/** The stored item of an active key, found by its id. */
async function activeKeyItem(ws: string, id: string): Promise<Record<string, unknown> | undefined> {
  const { Items } = await db().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: indexes.byParent.indexName,
      KeyConditionExpression: 'GSI1PK = :pk AND GSI1SK = :id',
      ExpressionAttributeValues: { ':pk': activeKeysEntry(ws).GSI1PK, ':id': id },
    }),
  );
  return Items?.[0];
}

/**
 * Revokes an active key and decrements the workspace's active-key count in one transaction; the
 * count's condition (> 1) is what makes "never revoke the last key" hold under concurrency.
 */
export async function revokeActiveKey(ws: string, id: string, revokedAt: string): Promise<'revoked' | 'not_found' | 'last_key'> {
  const item = await activeKeyItem(ws, id);
  if (!item) return 'not_found';
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: tableName(),
              Key: { PK: item.PK, SK: item.SK },
              UpdateExpression: 'SET revoked_at = :now REMOVE GSI1PK, GSI1SK',
              ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(revoked_at)',
              ExpressionAttributeValues: { ':now': revokedAt },
            },
          },
          activeKeyRemoved(ws),
        ],
      }),
    );
    return 'revoked';
  } catch (error) {
    const failed = failedConditions(error);
    if (!failed) throw error;
    // The key's own condition first: a key revoked meanwhile is not found, whatever the count.
    return failed.includes(0) ? 'not_found' : 'last_key';
  }
}

/** The key stored under a secret's hash, read strongly consistent so a revocation holds from the next request on. */
export async function keyByHash(hash: string): Promise<ApiKey | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: apiKeyKey(hash), ConsistentRead: true }));
  return Item as ApiKey | undefined;
}

/** Sets `last_used_at` unless it is at or after `cutoff`: concurrent requests write it once. */
export async function recordKeyUse(hash: string, at: Date, cutoff: Date): Promise<void> {
  await conditionally(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: apiKeyKey(hash),
        UpdateExpression: 'SET last_used_at = :now',
        ConditionExpression: 'attribute_exists(PK) AND (attribute_not_exists(last_used_at) OR last_used_at < :cutoff)',
        ExpressionAttributeValues: { ':now': at.toISOString(), ':cutoff': cutoff.toISOString() },
      }),
    ),
  );
}
