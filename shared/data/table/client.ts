import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { serviceClientConfig, withoutSdkLogger } from '#shared/aws-client-config';
import { env } from '#shared/config';
import { makeWritesRepeatable } from '#shared/data/table/repeatable-writes';

let instance: { endpoint: string | undefined; client: DynamoDBDocumentClient } | undefined;

/**
 * One document client per process, created on first use (after the local stack has set its
 * endpoint) and reused across invocations; a new one only if the endpoint changes (a benchmark
 * that moves on to a fresh local stack).
 */
export function db(): DynamoDBDocumentClient {
  const endpoint = env.dynamodbEndpoint;
  if (!instance || instance.endpoint !== endpoint) {
    const dynamodb = withoutSdkLogger(new DynamoDBClient(serviceClientConfig(endpoint)));
    makeWritesRepeatable(dynamodb);
    const client = DynamoDBDocumentClient.from(dynamodb, { marshallOptions: { removeUndefinedValues: true } });
    instance = { endpoint, client };
  }
  return instance.client;
}

export const tableName = (): string => env.tableName;
