import { startDynamoDbLocal } from '#local/dynamodb';
import { freePort } from '#local/ports';

/** One DynamoDB Local for the whole run, on a free port; each suite creates its own table in it. */
export default async function globalSetup(): Promise<void> {
  const dynamo = await startDynamoDbLocal(await freePort());
  process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  (globalThis as { __dynamo?: typeof dynamo }).__dynamo = dynamo;
}
