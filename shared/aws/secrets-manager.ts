import { AwsJsonClient, perEndpoint } from '#shared/aws/json-protocol';
import { env } from '#shared/config';

/** Secrets Manager's JSON protocol; the service reaches the real one only (the local stack keeps its secrets in files and the environment). */
const SECRETS_MANAGER = { signingName: 'secretsmanager', targetPrefix: 'secretsmanager', jsonVersion: '1.1', serviceId: 'Secrets Manager' } as const;

/** The process's Secrets Manager client (another endpoint only in a test: its scripted service). */
export const secretsManager = perEndpoint(
  () => env.secretsManagerEndpoint,
  (endpoint) => new AwsJsonClient(SECRETS_MANAGER, endpoint),
);

/** A secret's current string value (`SecretString`), by name or ARN. */
export async function secretString(secretId: string): Promise<string | undefined> {
  const { SecretString } = await secretsManager().call<{ SecretString?: string }>('GetSecretValue', { SecretId: secretId });
  return SecretString;
}
