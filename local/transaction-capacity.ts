import { indexes, table } from '#shared/data/table/table';

type Item = Record<string, unknown>;
type TransactItem = Partial<
  Record<
    'Put' | 'Update' | 'Delete' | 'ConditionCheck',
    { Key?: Item; Item?: Item; UpdateExpression?: string; ExpressionAttributeNames?: Record<string, string> }
  >
>;

const KB = 1024;
const NOT_ATTRIBUTES = new Set(['SET', 'ADD', 'REMOVE', 'DELETE', 'if_not_exists', 'list_append']);
const utf8 = (text: string) => Buffer.byteLength(text, 'utf8');

/** An attribute value's size as DynamoDB counts it (strings in UTF-8, numbers by digits, 3 bytes per list or map). */
function valueSize(value: unknown): number {
  if (value === null || value === undefined || typeof value === 'boolean') return 1;
  if (typeof value === 'string') return utf8(value);
  if (typeof value === 'number' || typeof value === 'bigint') return Math.ceil(String(value).replace(/[-.]/g, '').length / 2) + 1;
  if (value instanceof Uint8Array) return value.length;
  if (value instanceof Set || Array.isArray(value)) return 3 + [...value].reduce((sum: number, v) => sum + valueSize(v) + 1, 0);
  return 3 + Object.entries(value as Item).reduce((sum, [name, v]) => sum + utf8(name) + valueSize(v) + 1, 0);
}

export const itemSize = (item: Item): number => Object.entries(item).reduce((sum, [name, value]) => sum + utf8(name) + valueSize(value), 0);

/** A key as plain values, whether the command holds it marshalled (`{ S: '…' }`) or not. */
function plain(key: Item): Item {
  return Object.fromEntries(
    Object.entries(key).map(([name, value]) => [name, (value as { S?: string; N?: string })?.S ?? (value as { N?: string })?.N ?? value]),
  );
}

/** The attributes an update expression writes (placeholder names resolved). */
function touched(expression: string, names: Record<string, string> = {}): Set<string> {
  const tokens = expression.match(/(?<![:\w#.])#?[A-Za-z_]\w*/g) ?? [];
  return new Set(tokens.filter((t) => !NOT_ATTRIBUTES.has(t)).map((t) => (t.startsWith('#') ? (names[t] ?? t) : t)));
}

/**
 * Write units of one TransactWriteItems as DynamoDB bills it: 2 per KB of each item, and 2 per
 * KB of each index entry the write changes (the convention DynamoDB Local applies to a
 * transactional Put). DynamoDB Local itself reports about 2 units per call, whatever it holds,
 * so the meter prices transactions here. `read` returns an item as it is after the transaction.
 */
export async function transactionWriteUnits(
  items: TransactItem[],
  read: (key: Item) => Promise<Item | undefined>,
): Promise<{ table: number; byIndex: Record<string, number> }> {
  const byIndex: Record<string, number> = {};
  let tableUnits = 0;
  for (const transactItem of items) {
    const [kind, action] = Object.entries(transactItem)[0] as [keyof TransactItem, NonNullable<TransactItem[keyof TransactItem]>];
    const source = plain(action.Key ?? action.Item ?? {});
    const after = await read({ [table.partitionKey]: source[table.partitionKey], [table.sortKey]: source[table.sortKey] });
    tableUnits += 2 * Math.max(1, Math.ceil(itemSize(after ?? {}) / KB));
    if (!after || kind === 'ConditionCheck' || kind === 'Delete') continue;
    const written = kind === 'Update' ? touched(action.UpdateExpression ?? '', action.ExpressionAttributeNames) : undefined;
    for (const index of Object.values(indexes)) {
      if (after[index.partitionKey] === undefined) continue;
      const projected = index.projectedAttributes === 'ALL' ? undefined : [index.partitionKey, index.sortKey, ...index.projectedAttributes];
      if (written && projected && !projected.some((name) => written.has(name))) continue;
      const entry = projected ? Object.fromEntries([table.partitionKey, table.sortKey, ...projected].map((name) => [name, after[name]])) : after;
      byIndex[index.indexName] = (byIndex[index.indexName] ?? 0) + 2 * Math.max(1, Math.ceil(itemSize(entry) / KB));
    }
  }
  return { table: tableUnits, byIndex };
}
