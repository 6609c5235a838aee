import { BatchGetCommand, GetCommand, QueryCommand, type BatchGetCommandOutput, type QueryCommandInput } from '#shared/data/table/commands';
import { db, tableName } from '#shared/data/table/client';

type Key = Record<string, unknown>;

/** Page `page` (1-based) of a query's results in its order: the items before it are read and skipped. */
export async function queryPage<T = Record<string, unknown>>(
  input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey' | 'Limit'>,
  page: number,
  pageSize: number,
): Promise<T[]> {
  const wanted = page * pageSize;
  const items: T[] = [];
  let ExclusiveStartKey: Key | undefined;
  do {
    const result = await db().send(new QueryCommand({ ...input, TableName: tableName(), ExclusiveStartKey, Limit: wanted - items.length }));
    items.push(...((result.Items ?? []) as T[]));
    ExclusiveStartKey = result.LastEvaluatedKey;
  } while (ExclusiveStartKey && items.length < wanted);
  return items.slice((page - 1) * pageSize, wanted);
}

/** Items by key, in the order of `keys`, missing ones left out. BatchGet in chunks of 100, unprocessed keys retried. */
export async function getMany<T = Record<string, unknown>>(itemKeys: { PK: string; SK: string }[], consistent = false): Promise<T[]> {
  const found = new Map<string, T>();
  const id = (key: { PK: unknown; SK: unknown }) => `${key.PK}|${key.SK}`;
  for (let start = 0; start < itemKeys.length; start += 100) {
    let pending: Key[] | undefined = itemKeys.slice(start, start + 100);
    for (let attempt = 0; pending?.length; attempt++) {
      if (attempt) await new Promise((resolve) => setTimeout(resolve, 2 ** attempt * 20));
      const result: BatchGetCommandOutput = await db().send(
        new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: pending, ConsistentRead: consistent } } }),
      );
      for (const item of result.Responses?.[tableName()] ?? []) found.set(id(item as { PK: string; SK: string }), item as T);
      pending = result.UnprocessedKeys?.[tableName()]?.Keys;
    }
  }
  return itemKeys.flatMap((key) => (found.has(id(key)) ? [found.get(id(key))!] : []));
}

export async function readCounter(key: { PK: string; SK: string }, attribute = 'count'): Promise<number> {
  const { Item } = await db().send(
    new GetCommand({ TableName: tableName(), Key: key, ProjectionExpression: '#a', ExpressionAttributeNames: { '#a': attribute } }),
  );
  return Number(Item?.[attribute] ?? 0);
}
