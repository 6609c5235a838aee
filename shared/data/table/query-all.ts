import { QueryCommand, type QueryCommandInput } from '#shared/data/table/commands';
import { db, tableName } from '#shared/data/table/client';

/** Every item a query matches, following LastEvaluatedKey. Only for collections known to be small. */
export async function queryAll<T = Record<string, unknown>>(input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>): Promise<T[]> {
  const items: T[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await db().send(new QueryCommand({ ...input, TableName: tableName(), ExclusiveStartKey }));
    items.push(...((page.Items ?? []) as T[]));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return items;
}
