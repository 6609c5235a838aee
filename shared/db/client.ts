import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { awsClientConfig, env } from '#shared/config';

let instance: DynamoDBDocumentClient | undefined;

/** One document client per process, created on first use (after the local stack has set its endpoint) and reused across invocations. */
export function db(): DynamoDBDocumentClient {
  instance ??= DynamoDBDocumentClient.from(new DynamoDBClient(awsClientConfig(env.dynamodbEndpoint)), {
    marshallOptions: { removeUndefinedValues: true },
  });
  return instance;
}

export const tableName = (): string => env.required('TABLE_NAME');
