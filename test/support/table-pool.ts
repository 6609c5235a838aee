import { mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { awsClientConfig } from '#local/sdk-client-config';
import { ensureTable } from '#local/dynamodb';

/**
 * DynamoDB Local serves a table whose stream opens after a long stream history slowly: 20 ms a
 * put after 15,000 stream records in other tables, 60 ms after 60,000, against 2 ms for a table
 * whose stream opened before that history (dropping the other tables does not help). So the run's
 * tables are made, and their streams opened, before any suite writes; each suite then claims one.
 */
export interface TablePool {
  /** Where claims are made: one directory per claimed table (mkdir is atomic across workers). */
  claims: string;
  size: number;
}

const tableName = (i: number) => `test-pool-${i}`;

/** Suites that take a table: the calls of the test helpers that give one. */
function tableUsersIn(dir: string): number {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts'))
    .reduce((count, file) => count + (readFileSync(join(dir, file), 'utf8').match(/\buse(TestApi|IsolatedTable)\(/g)?.length ?? 0), 0);
}

/** Creates a table for each suite that asks for one, each with a first write that opens its stream. */
export async function createTablePool(endpoint: string, testRoot: string): Promise<TablePool> {
  const client = new DynamoDBClient(awsClientConfig(endpoint));
  const size = tableUsersIn(testRoot);
  for (let i = 0; i < size; i++) {
    await ensureTable(endpoint, tableName(i));
    await client.send(new PutItemCommand({ TableName: tableName(i), Item: { PK: { S: 'TEST#POOL' }, SK: { S: 'STREAM_OPENED' } } }));
  }
  client.destroy();
  return { claims: mkdtempSync(join(tmpdir(), 'table-pool-')), size };
}

/** An unclaimed table of the pool, or undefined once all are taken. */
export function claimPooledTable(pool: TablePool): string | undefined {
  for (let i = 0; i < pool.size; i++) {
    try {
      mkdirSync(join(pool.claims, tableName(i)));
      return tableName(i);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return undefined;
}
