import { randomUUID } from 'node:crypto';
import { DeleteTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { awsClientConfig } from '#shared/config';
import { ensureTable } from '#local/dynamodb';

/**
 * Gives the calling test file its own table in the shared DynamoDB Local, and returns what drops
 * it: call that once nothing uses the table any more. A dropped table takes its items and stream
 * with it, so a heavy suite does not slow down DynamoDB Local for the suites after it.
 */
export function useIsolatedTable(): () => Promise<void> {
  beforeAll(async () => {
    process.env.TABLE_NAME = `test-${randomUUID()}`;
    await ensureTable(process.env.DYNAMODB_ENDPOINT!, process.env.TABLE_NAME);
  });
  return async () => {
    const client = new DynamoDBClient(awsClientConfig(process.env.DYNAMODB_ENDPOINT));
    await client.send(new DeleteTableCommand({ TableName: process.env.TABLE_NAME }));
    client.destroy();
  };
}
