import { createHash, randomBytes } from 'node:crypto';
import { activeKeys, insertKey, keyByHash, recordKeyUse, revokeActiveKey } from '#shared/data/api-key';
import { cachedWorkspace } from '#shared/domain/workspaces';
import { errors } from '#shared/errors';
import { newId } from '#shared/ids';
import { nowIso } from '#shared/time';
import type { ApiKey } from '#shared/records/api-key';
import type { Workspace } from '#shared/records/workspace';

const KEY_PREFIX = 'sk_live_';
const LAST_USED_RESOLUTION_MS = 60_000;

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
  if (!(await insertKey(hash, key))) throw errors.notFound('Workspace');
  return { ...publicView(key), api_key: secret };
}

/** Active keys of a workspace, newest first. */
export const listKeys = activeKeys;

/** Revokes a key (contract §3): unknown or already revoked is 404, the workspace's last active key 409. */
export async function revokeKey(workspaceId: string, id: string) {
  const revokedAt = nowIso();
  const outcome = await revokeActiveKey(workspaceId, id, revokedAt);
  if (outcome === 'not_found') throw errors.notFound('API key');
  if (outcome === 'last_key') throw errors.refused('cannot_revoke_last_key', 'The only active API key of a workspace cannot be revoked');
  return { id, revoked: true, revoked_at: revokedAt };
}

/** The workspace of each key this process has found: a key never changes workspace (its validity is read on every request). */
const seenKeyWorkspaces = new Map<string, string>();

/** The workspace of a key found before in this process, without reading it; whether the key is still valid is for findActiveKey. */
export const workspaceOfSeenKey = (secret: string): string | undefined => seenKeyWorkspaces.get(hashSecret(secret));

/** The key for a presented secret, if it exists and is not revoked. Read strongly consistent so a revocation holds from the next request on. */
export async function findActiveKey(secret: string): Promise<{ key: ApiKey; hash: string; workspace: Workspace } | undefined> {
  const hash = hashSecret(secret);
  const key = await keyByHash(hash);
  if (!key || key.revoked_at) return undefined;
  seenKeyWorkspaces.set(hash, key.workspace_id);
  const workspace = await cachedWorkspace(key.workspace_id);
  return workspace && { key, hash, workspace };
}

/** Records use at most once a minute per key; the condition makes concurrent requests write once. */
export async function touchLastUsed(hash: string, lastUsedAt: string | undefined): Promise<void> {
  const now = Date.now();
  if (lastUsedAt && now - Date.parse(lastUsedAt) < LAST_USED_RESOLUTION_MS) return;
  await recordKeyUse(hash, new Date(now), new Date(now - LAST_USED_RESOLUTION_MS));
}
