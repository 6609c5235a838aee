import { randomUUID } from 'node:crypto';
import { ensureTable } from '#local/dynamodb';
import { claimPooledTable } from './table-pool';

/**
 * Gives the calling test file its own table in the shared DynamoDB Local: one of the pool made
 * before the run (see table-pool.ts), or a new one where the pool is used up.
 */
export function useIsolatedTable(): void {
  beforeAll(async () => {
    const pooled = claimPooledTable(JSON.parse(process.env.TABLE_POOL!));
    process.env.TABLE_NAME = pooled ?? `test-${randomUUID()}`;
    if (!pooled) await ensureTable(process.env.DYNAMODB_ENDPOINT!, process.env.TABLE_NAME);
  });
}
