import { env } from '#shared/config';

/**
 * Settings of the SDK's clients, which only the local stack and the tests use (the functions
 * call AWS through shared/aws/json-protocol.ts, with none of them). An endpoint override means the local stack
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

/**
 * Takes the SDK's logger middleware off a client (the local stack's pollers). It filters every call's input
 * and output for its logger, walking each item of a page, even when the logger is the SDK's
 * no-op default: a quarter of the client-side CPU of reading 30,000 contacts (docs/performance.md).
 * The stack logs through Powertools, never through the SDK's logger.
 */
export function withoutSdkLogger<C extends { middlewareStack: { remove(name: string): boolean } }>(client: C): C {
  client.middlewareStack.remove('loggerMiddleware');
  return client;
}
