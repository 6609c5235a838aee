import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { DeleteSecretCommand, ResourceNotFoundException, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { serviceClientConfig } from '#shared/aws-client-config';
import { env } from '#shared/config';

/**
 * Deleting a workspace's own secret (its business token from Embedded Signup, contract §19), for
 * its erasure. Onboarding keeps the secret in the same two stores under the same names (in AWS
 * `{WORKSPACE_SECRETS_PREFIX}/workspaces/{id}` in Secrets Manager, locally
 * `{LOCAL_WORKSPACE_SECRETS_DIR}/{id}.json`); this is the deletion those stores need, kept apart
 * so the two can be merged into one store (docs/operator.md, "Erasure").
 */
export interface WorkspaceSecretDeletion {
  /** Deletes the workspace's secret for good; none (never onboarded, or deleted already) is no error. */
  deleteWorkspaceSecret(workspaceId: string): Promise<void>;
}

/** In AWS: deleted without Secrets Manager's recovery window, so nothing of an erased workspace is kept for days. */
function secretsManagerDeletion(prefix: string): WorkspaceSecretDeletion {
  let client: SecretsManagerClient | undefined;
  return {
    async deleteWorkspaceSecret(workspaceId) {
      client ??= new SecretsManagerClient(serviceClientConfig(undefined));
      try {
        await client.send(new DeleteSecretCommand({ SecretId: `${prefix}/workspaces/${workspaceId}`, ForceDeleteWithoutRecovery: true }));
      } catch (error) {
        if (!(error instanceof ResourceNotFoundException)) throw error;
      }
    },
  };
}

/** Locally: the workspace's JSON file in the local stack's directory of secrets (`.local/`, never committed). */
const fileDeletion = (dir: string): WorkspaceSecretDeletion => ({
  deleteWorkspaceSecret: (workspaceId) => rm(join(dir, `${workspaceId.replace(/[^\w-]/g, '')}.json`), { force: true }),
});

/** The deployment's store: Secrets Manager when a prefix is set (AWS), else the local directory; neither: no workspace has a secret of its own. */
export function workspaceSecretDeletion(): WorkspaceSecretDeletion {
  const prefix = env.workspaceSecretsPrefix;
  if (prefix) return secretsManagerDeletion(prefix);
  const dir = env.localWorkspaceSecretsDir;
  return dir ? fileDeletion(dir) : { deleteWorkspaceSecret: async () => undefined };
}
