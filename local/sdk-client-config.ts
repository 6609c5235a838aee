import { awsAccess } from '#shared/aws/clients';

/**
 * Settings of the SDK clients the local stack's set-up and the tests make: an endpoint override
 * means the local stack (DynamoDB Local, the SQS emulator, the EventBridge stand-in), which accept
 * any credentials. The service's own clients, and the local stack's pollers, add the service's
 * retries and time-outs (`serviceClientConfig` of shared/aws/clients.ts).
 */
export const awsClientConfig = (endpoint: string | undefined) => awsAccess(endpoint);
