import { randomUUID } from 'node:crypto';
import { ensureTable } from '#local/dynamodb';

/** Gives the calling test file its own table in the shared DynamoDB Local. */
export function useIsolatedTable(): void {
  beforeAll(async () => {
    process.env.TABLE_NAME = `test-${randomUUID()}`;
    await ensureTable(process.env.DYNAMODB_ENDPOINT!, process.env.TABLE_NAME);
  });
}
