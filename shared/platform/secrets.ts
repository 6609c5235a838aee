import { env } from '#shared/config';
import { secretString } from '#shared/aws/secrets-manager';
import { workspaceToken } from '#shared/platform/workspace-secrets';

/** The platform credentials: in Secrets Manager in the cloud, in an environment variable in the local stack. */
export interface PlatformSecrets {
  app_secret: string;
  /** The Meta app's id: template media are uploaded to it (Resumable Upload API). */
  app_id?: string;
  verify_token: string;
  /** The system-user token used for every workspace without its own. */
  access_token: string;
  /** Per-workspace tokens, for workspaces of other business accounts. */
  access_tokens?: Record<string, string>;
}

/** Re-read after this long, so a rotated token is picked up without a redeploy. */
const CACHE_MS = 5 * 60_000;
let cached: { secrets: PlatformSecrets; until: number } | undefined;

async function load(): Promise<PlatformSecrets> {
  const arn = env.platformSecretArn;
  if (!arn) return JSON.parse(env.localPlatformSecrets) as PlatformSecrets;
  return JSON.parse((await secretString(arn)) ?? '{}') as PlatformSecrets;
}

export async function platformSecrets(): Promise<PlatformSecrets> {
  if (!cached || cached.until < Date.now()) cached = { secrets: await load(), until: Date.now() + CACHE_MS };
  return cached.secrets;
}

/** A token of the workspace's own: from its Embedded Signup (its secret), else the operator's `access_tokens` entry for it. */
export async function ownAccessToken(workspaceId: string): Promise<string | undefined> {
  return (await workspaceToken(workspaceId)) ?? (await platformSecrets()).access_tokens?.[workspaceId];
}

/**
 * A workspace's token: its own, else the shared one. Called for the numbers and accounts the
 * workspace holds, and a workspace holds an account reached by the shared token only when the
 * operator connected it (contract §22, shared/domain/numbers/connect.ts).
 */
export async function accessTokenFor(workspaceId: string): Promise<string> {
  return (await ownAccessToken(workspaceId)) ?? (await platformSecrets()).access_token;
}
