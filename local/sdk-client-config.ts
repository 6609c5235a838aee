import { env } from '#shared/config';

/**
 * Settings of the SDK's clients, which only the local stack's set-up and the tests use (the functions
 * and the local stack's pollers call AWS through shared/aws/json-protocol.ts, with none of them). An endpoint override means the local stack
 * (DynamoDB Local, the SQS emulator, the EventBridge stand-in), which accept any credentials.
 */
export function awsClientConfig(endpoint: string | undefined) {
  if (!endpoint) return {};
  return {
    endpoint,
    region: env.awsRegion,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  };
}
