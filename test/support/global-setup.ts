import { startDynamoDbLocal } from '#local/dynamodb';
import { freePort } from '#local/ports';
import { createTablePool } from './table-pool';

/** One DynamoDB Local for the whole run, on a free port, with a table ready for each suite that needs one. */
export default async function globalSetup(): Promise<void> {
  const dynamo = await startDynamoDbLocal(await freePort(), undefined, { quickJvm: true });
  process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  process.env.TABLE_POOL = JSON.stringify(await createTablePool(dynamo.endpoint, `${__dirname}/..`));
  (globalThis as { __dynamo?: typeof dynamo }).__dynamo = dynamo;
}
