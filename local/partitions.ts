import { indexes, table } from '#shared/data/table/table';

/** The partition keys one DynamoDB call touches: the table's, and each index's, by index name. */
export interface TouchedPartitions {
  table: string[];
  indexes: Record<string, string[]>;
}

type Item = Record<string, unknown>;

/** A written item's index entries: each index whose partition key attribute the item has. */
function indexEntries(item: Item, into: Record<string, string[]>) {
  for (const index of Object.values(indexes)) {
    const key = item[index.partitionKey];
    if (typeof key === 'string') (into[index.indexName] ??= []).push(`${index.indexName}:${key}`);
  }
}

/** `PK = :pk AND …`: the partition key value a query reads. */
function queriedKey(input: Item): string {
  const [, placeholder] = /^\s*#?\w+\s*=\s*(:\w+)/.exec(String(input.KeyConditionExpression)) ?? [];
  return String((input.ExpressionAttributeValues as Item | undefined)?.[placeholder] ?? '?');
}

/**
 * Which partitions a call (document client input) touches. Updates' index entries are not
 * known from the input: their index units, if any, are put under `index:?`.
 */
export function touchedPartitions(command: string, input: Item): TouchedPartitions {
  const touched: TouchedPartitions = { table: [], indexes: {} };
  const keyOf = (item: Item) => String(item[table.partitionKey]);
  const write = (item: Item | undefined, key: Item | undefined) => {
    if (item) {
      touched.table.push(keyOf(item));
      indexEntries(item, touched.indexes);
    } else if (key) touched.table.push(keyOf(key));
  };
  switch (command) {
    case 'GetItemCommand':
    case 'UpdateItemCommand':
    case 'DeleteItemCommand':
      write(undefined, input.Key as Item);
      break;
    case 'PutItemCommand':
      write(input.Item as Item, undefined);
      break;
    case 'QueryCommand':
      if (input.IndexName) touched.indexes[input.IndexName as string] = [`${input.IndexName}:${queriedKey(input)}`];
      else touched.table.push(queriedKey(input));
      break;
    case 'BatchGetItemCommand':
      for (const request of Object.values(input.RequestItems as Record<string, { Keys: Item[] }>)) request.Keys.forEach((key) => write(undefined, key));
      break;
    case 'BatchWriteItemCommand':
      for (const requests of Object.values(input.RequestItems as Record<string, { PutRequest?: { Item: Item }; DeleteRequest?: { Key: Item } }[]>)) {
        requests.forEach((r) => write(r.PutRequest?.Item, r.DeleteRequest?.Key));
      }
      break;
    case 'TransactWriteItemsCommand':
      for (const t of input.TransactItems as { Put?: { Item: Item }; Update?: { Key: Item }; Delete?: { Key: Item }; ConditionCheck?: { Key: Item } }[]) {
        write(t.Put?.Item, (t.Update ?? t.Delete ?? t.ConditionCheck)?.Key);
      }
      break;
  }
  return touched;
}
