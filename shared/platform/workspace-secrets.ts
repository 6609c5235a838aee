import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CreateSecretCommand, DeleteSecretCommand, PutSecretValueCommand } from '@aws-sdk/client-secrets-manager';
import { env } from '#shared/config';
import { secretString, secretsManager } from '#shared/aws/secrets-manager';

/** What a workspace's secret holds: the business token its Embedded Signup gave (contract §19). */
export interface WorkspaceSecret {
  access_token: string;
  /** The two-step verification PIN the number was registered with, when the service chose it. */
  pin?: string;
  /** SHA-256 (hex) of the Embedded Signup code the token came from: that code needs no second exchange. */
  code_sha256?: string;
}

/** Where workspaces' own secrets are kept: never in the table (docs/operator.md, "Onboarding"). */
export interface WorkspaceSecretStore {
  read(workspaceId: string): Promise<WorkspaceSecret | undefined>;
  write(workspaceId: string, secret: WorkspaceSecret): Promise<void>;
  /** Deletes it for good (the workspace's erasure); none is no error. */
  remove(workspaceId: string): Promise<void>;
}

/** The secret's name: under `<prefix>/workspaces/`, the only secrets the functions may read or write (lib/access-grants.ts). */
export const workspaceSecretName = (prefix: string, workspaceId: string): string => `${prefix}/workspaces/${workspaceId}`;

/** Secrets Manager: one secret per workspace, created on its first write. */
export function secretsManagerStore(prefix: string): WorkspaceSecretStore {
  const notFound = (error: unknown) => (error as Error | undefined)?.name === 'ResourceNotFoundException';
  return {
    async read(workspaceId) {
      try {
        const value = await secretString(workspaceSecretName(prefix, workspaceId));
        return value ? (JSON.parse(value) as WorkspaceSecret) : undefined;
      } catch (error) {
        if (notFound(error)) return undefined;
        throw error;
      }
    },
    async write(workspaceId, secret) {
      const name = workspaceSecretName(prefix, workspaceId);
      const SecretString = JSON.stringify(secret);
      try {
        // A new version each write; the SDK fills in its ClientRequestToken, kept across the call's retries.
        await secretsManager().send(new PutSecretValueCommand({ SecretId: name, SecretString }));
      } catch (error) {
        if (!notFound(error)) throw error;
        await secretsManager().send(new CreateSecretCommand({ Name: name, SecretString, Description: `WhatsApp business token of workspace ${workspaceId}` }));
      }
    },
    // Without Secrets Manager's recovery window: nothing of an erased workspace is kept for days.
    async remove(workspaceId) {
      try {
        await secretsManager().send(new DeleteSecretCommand({ SecretId: workspaceSecretName(prefix, workspaceId), ForceDeleteWithoutRecovery: true }));
      } catch (error) {
        if (!notFound(error)) throw error;
      }
    },
  };
}

/** The local stack's stand-in: one JSON file per workspace in a directory of `.local/` (never committed). */
export function fileStore(dir: string): WorkspaceSecretStore {
  const file = (workspaceId: string) => join(dir, `${workspaceId.replace(/[^\w-]/g, '')}.json`);
  return {
    async read(workspaceId) {
      try {
        return JSON.parse(await readFile(file(workspaceId), 'utf8')) as WorkspaceSecret;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
    async write(workspaceId, secret) {
      await mkdir(dir, { recursive: true, mode: 0o700 });
      // Written whole then renamed, so a reader never sees half a file.
      const partial = `${file(workspaceId)}.${process.pid}.tmp`;
      await writeFile(partial, JSON.stringify(secret), { mode: 0o600 });
      await rename(partial, file(workspaceId));
    },
    remove: (workspaceId) => rm(file(workspaceId), { force: true }),
  };
}

/** The deployment's store: Secrets Manager when a prefix is set (AWS), else the local directory; none: no workspace has its own token. */
export function workspaceSecretStore(): WorkspaceSecretStore | undefined {
  const prefix = env.workspaceSecretsPrefix;
  if (prefix) return secretsManagerStore(prefix);
  const dir = env.localWorkspaceSecretsDir;
  return dir ? fileStore(dir) : undefined;
}

/**
 * A workspace's own token is read once per function instance and kept this long: a token is
 * rotated only by onboarding again. A workspace without one is asked again sooner, so a workspace
 * onboarded meanwhile uses its token within a minute everywhere (at once in the onboarding's process).
 */
const TOKEN_CACHE_MS = 5 * 60_000;
const NO_TOKEN_CACHE_MS = 60_000;
const cache = new Map<string, { token: string | undefined; until: number }>();

export async function workspaceToken(workspaceId: string): Promise<string | undefined> {
  const hit = cache.get(workspaceId);
  if (hit && hit.until > Date.now()) return hit.token;
  const store = workspaceSecretStore();
  const token = store ? (await store.read(workspaceId))?.access_token : undefined;
  cache.set(workspaceId, { token, until: Date.now() + (token ? TOKEN_CACHE_MS : NO_TOKEN_CACHE_MS) });
  return token;
}

const requireStore = (): WorkspaceSecretStore => {
  const store = workspaceSecretStore();
  if (!store) throw new Error('No workspace secret store is configured (WORKSPACE_SECRETS_PREFIX or LOCAL_WORKSPACE_SECRETS_DIR)');
  return store;
};

/** A workspace's secret as stored now (not cached). */
export const workspaceSecret = (workspaceId: string): Promise<WorkspaceSecret | undefined> => requireStore().read(workspaceId);

/** Keeps a workspace's secret, and its token in this instance's cache at once. */
export async function storeWorkspaceSecret(workspaceId: string, secret: WorkspaceSecret): Promise<void> {
  await requireStore().write(workspaceId, secret);
  cache.set(workspaceId, { token: secret.access_token, until: Date.now() + TOKEN_CACHE_MS });
}

/** Deletes a workspace's own secret, if it has one, and forgets its token here (its erasure, docs/operator.md). */
export async function deleteWorkspaceSecret(workspaceId: string): Promise<void> {
  await workspaceSecretStore()?.remove(workspaceId);
  cache.delete(workspaceId);
}
