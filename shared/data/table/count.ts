import { QueryCommand, type QueryCommandInput } from '#shared/data/table/commands';
import { db, tableName } from '#shared/data/table/client';

/** The exact number of items a query matches (a COUNT query, page by page): only for partitions known to be bounded. */
export async function countQuery(input: Omit<QueryCommandInput, 'TableName' | 'Select' | 'ExclusiveStartKey'>): Promise<number> {
  let count = 0;
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await db().send(new QueryCommand({ ...input, TableName: tableName(), Select: 'COUNT', ExclusiveStartKey }));
    count += page.Count ?? 0;
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return count;
}
