import { AwsJsonClient } from '#shared/aws/json-protocol';
import { env } from '#shared/config';

/** Secrets Manager's JSON protocol; the service reaches the real one only (the local stack keeps its secrets in files and the environment). */
const SECRETS_MANAGER = { signingName: 'secretsmanager', targetPrefix: 'secretsmanager', jsonVersion: '1.1', serviceId: 'Secrets Manager' } as const;

let instance: { endpoint: string | undefined; client: AwsJsonClient } | undefined;

/** The process's Secrets Manager client, created on first use (a new one if the endpoint changes: a test's scripted service). */
export function secretsManager(): AwsJsonClient {
  const endpoint = env.secretsManagerEndpoint;
  if (!instance || instance.endpoint !== endpoint) instance = { endpoint, client: new AwsJsonClient(SECRETS_MANAGER, endpoint) };
  return instance.client;
}

/** A secret's current string value (`SecretString`), by name or ARN. */
export async function secretString(secretId: string): Promise<string | undefined> {
  const { SecretString } = await secretsManager().call<{ SecretString?: string }>('GetSecretValue', { SecretId: secretId });
  return SecretString;
}
