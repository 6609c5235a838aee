import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { perEndpoint, serviceClientConfig, withoutSdkLogger } from '#shared/aws/clients';
import { env } from '#shared/config';

/** The process's Secrets Manager client; the service reaches the real one only (the local stack keeps its secrets in files and the environment; another endpoint only in a test: its scripted service). */
export const secretsManager = perEndpoint(
  () => env.secretsManagerEndpoint,
  (endpoint) => withoutSdkLogger(new SecretsManagerClient(serviceClientConfig(endpoint))),
);

/** A secret's current string value (`SecretString`), by name or ARN. */
export async function secretString(secretId: string): Promise<string | undefined> {
  const { SecretString } = await secretsManager().send(new GetSecretValueCommand({ SecretId: secretId }));
  return SecretString;
}
