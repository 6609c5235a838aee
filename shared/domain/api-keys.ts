import { createHash, randomBytes } from 'node:crypto';
import { GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { db, tableName } from '#shared/data/table/client';
import { keys } from '#shared/data/keys';
import { queryAll } from '#shared/data/table/query-all';
import { indexes } from '#shared/data/table/table';
import { cachedWorkspace, type Workspace } from '#shared/domain/workspaces';
import { errors } from '#shared/errors';
import { newId } from '#shared/ids';
import { nowIso } from '#shared/time';

const KEY_PREFIX = 'sk_live_';
const LAST_USED_RESOLUTION_MS = 60_000;

export interface ApiKey {
  id: string;
  workspace_id: string;
  name: string;
  description: string | null;
  api_key_prefix: string;
  created_at: string;
  last_used_at?: string;
  revoked_at?: string;
}

/** `sk_live_` + 43 URL-safe characters from 32 random bytes (256 bits of entropy). */
export const generateSecret = (): string => KEY_PREFIX + randomBytes(32).toString('base64url');
export const hashSecret = (secret: string): string => createHash('sha256').update(secret).digest('hex');
export const maskSecret = (secret: string): string => `${secret.slice(0, 12)}...`;

export const publicView = ({ id, name, description, api_key_prefix, created_at, last_used_at }: ApiKey) => ({
  id,
  name,
  description,
  api_key_prefix,
  created_at,
  last_used_at: last_used_at ?? null,
});

export async function createKey(workspaceId: string, input: { name: string; description?: string }) {
  const secret = generateSecret();
  const hash = hashSecret(secret);
  const key: ApiKey = {
    id: newId(),
    workspace_id: workspaceId,
    name: input.name,
    description: input.description ?? null,
    api_key_prefix: maskSecret(secret),
    created_at: nowIso(),
  };
  await db().send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Put: {
            TableName: tableName(),
            Item: { ...keys.apiKey(hash), ...keys.apiKeyList(workspaceId, key.id), ...key },
            ConditionExpression: 'attribute_not_exists(PK)',
          },
        },
        {
          Update: {
            TableName: tableName(),
            Key: keys.workspace(workspaceId),
            UpdateExpression: 'ADD active_keys :one',
            ConditionExpression: 'attribute_exists(PK)',
            ExpressionAttributeValues: { ':one': 1 },
          },
        },
      ],
    }),
  );
  return { ...publicView(key), api_key: secret };
}

/** Active keys of a workspace, newest first; revoked keys have left the (sparse) index. */
export function listKeys(workspaceId: string): Promise<ApiKey[]> {
  return queryAll<ApiKey>({
    IndexName: indexes.byParent.indexName,
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': keys.apiKeyList(workspaceId).GSI1PK },
    ScanIndexForward: false,
  });
}

/**
 * Revokes a key and decrements the workspace's active-key count in one transaction; the
 * count's condition (> 1) is what makes "never revoke the last key" hold under concurrency.
 * Revoked keys leave the listing index (sparse), so a second revoke is a 404.
 */
export async function revokeKey(workspaceId: string, id: string) {
  const { Items } = await db().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: indexes.byParent.indexName,
      KeyConditionExpression: 'GSI1PK = :pk AND GSI1SK = :id',
      ExpressionAttributeValues: { ':pk': keys.apiKeyList(workspaceId).GSI1PK, ':id': id },
    }),
  );
  const item = Items?.[0];
  if (!item) throw errors.notFound('API key');
  const revokedAt = nowIso();
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
          {
            Update: {
              TableName: tableName(),
              Key: keys.workspace(workspaceId),
              UpdateExpression: 'ADD active_keys :minusOne',
              ConditionExpression: 'active_keys > :one',
              ExpressionAttributeValues: { ':minusOne': -1, ':one': 1 },
            },
          },
        ],
      }),
    );
  } catch (error) {
    if (!(error instanceof TransactionCanceledException)) throw error;
    const [keyReason, countReason] = error.CancellationReasons ?? [];
    if (keyReason?.Code === 'ConditionalCheckFailed') throw errors.notFound('API key');
    if (countReason?.Code === 'ConditionalCheckFailed') {
      throw errors.refused('cannot_revoke_last_key', 'The only active API key of a workspace cannot be revoked');
    }
    throw error;
  }
  return { id, revoked: true, revoked_at: revokedAt };
}

/** The key for a presented secret, if it exists and is not revoked. Read strongly consistent so a revocation holds from the next request on. */
export async function findActiveKey(secret: string): Promise<{ key: ApiKey; hash: string; workspace: Workspace } | undefined> {
  const hash = hashSecret(secret);
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.apiKey(hash), ConsistentRead: true }));
  if (!Item || Item.revoked_at) return undefined;
  const key = Item as ApiKey;
  const workspace = await cachedWorkspace(key.workspace_id);
  return workspace && { key, hash, workspace };
}

/** Records use at most once a minute per key; the condition makes concurrent requests write once. */
export async function touchLastUsed(hash: string, lastUsedAt: string | undefined): Promise<void> {
  const now = Date.now();
  if (lastUsedAt && now - Date.parse(lastUsedAt) < LAST_USED_RESOLUTION_MS) return;
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.apiKey(hash),
        UpdateExpression: 'SET last_used_at = :now',
        ConditionExpression: 'attribute_exists(PK) AND (attribute_not_exists(last_used_at) OR last_used_at < :cutoff)',
        ExpressionAttributeValues: { ':now': new Date(now).toISOString(), ':cutoff': new Date(now - LAST_USED_RESOLUTION_MS).toISOString() },
      }),
    );
  } catch (error) {
    if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
  }
}
