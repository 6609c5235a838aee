import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { startDynamoDbLocal } from '#local/dynamodb';
import { freePort } from '#local/ports';
import { localChecksOn, templateModelFile } from '#local/iam/model-file';
import { usageDir } from '#local/iam/usage';
import { createTablePool } from './table-pool';

/**
 * One DynamoDB Local for the whole run, on a free port, with a table ready for each suite that
 * needs one; and the model of the synthesized template the local checks read (local/iam/model.ts),
 * synthesized meanwhile (or read from its cache), which every worker and spawned stack is given.
 */
export default async function globalSetup(): Promise<void> {
  const [dynamo] = await Promise.all([startDynamoDbLocal(await freePort(), undefined, { quickJvm: true }), prepareLocalChecks()]);
  process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  process.env.TABLE_POOL = JSON.stringify(await createTablePool(dynamo.endpoint, `${__dirname}/..`));
  (globalThis as { __dynamo?: typeof dynamo }).__dynamo = dynamo;
}

/** The run's model file, and a fresh record of its calls (`npm run iam-report` reads it): the earlier test run's files go. */
async function prepareLocalChecks(): Promise<void> {
  if (!localChecksOn()) return;
  await templateModelFile();
  process.env.LOCAL_IAM_RUN = 'test';
  process.env.LOCAL_IAM_USAGE_DIR = usageDir();
  mkdirSync(usageDir(), { recursive: true });
  for (const file of readdirSync(usageDir())) if (file.startsWith('test-')) rmSync(join(usageDir(), file));
}
