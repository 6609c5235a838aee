import { DEFAULT_GRAPH_API_VERSION } from '#shared/platform/graph-version';
/** Environment settings shared by all functions. Read lazily so tests can set them per suite. */
export const env = {
  required(name: string): string {
    const value = process.env[name];
    if (!value) throw new Error(`Missing environment variable ${name}`);
    return value;
  },
  get dynamodbEndpoint() {
    return process.env.DYNAMODB_ENDPOINT;
  },
  get sqsEndpoint() {
    return process.env.SQS_ENDPOINT;
  },
  /** The S3 emulator locally (fauxqs serves SQS and S3 on one port); unset in AWS. */
  get s3Endpoint() {
    return process.env.S3_ENDPOINT;
  },
  get eventBridgeEndpoint() {
    return process.env.EVENTBRIDGE_ENDPOINT;
  },
  get graphApiBaseUrl() {
    return process.env.GRAPH_API_BASE_URL ?? 'https://graph.facebook.com';
  },
  get graphApiVersion() {
    return process.env.GRAPH_API_VERSION ?? DEFAULT_GRAPH_API_VERSION;
  },
};

/**
 * SDK client settings. An endpoint override means the local stack (DynamoDB Local, the SQS
 * emulator, the EventBridge stand-in), which accept any credentials.
 */
export function awsClientConfig(endpoint: string | undefined) {
  if (!endpoint) return {};
  return {
    endpoint,
    region: process.env.AWS_REGION ?? 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  };
}
