import { failedConditions, MAX_TRANSACTION_ITEMS, transact, type TransactItem } from '#shared/data/table/transact';
import { tableName } from '#shared/data/table/client';

type Key = { PK: string; SK: string };

/** A counter moved by a unit; units of one transaction moving the same counter are summed into one update. */
export interface CounterDelta {
  key: Key;
  /** The counted attribute; `count` unless the item counts several things. */
  attribute?: string;
  delta: number;
  /** The counted thing must still exist (a group): its update carries `attribute_exists`. */
  mustExist?: boolean;
  /** A counter kept for a while only (by the hour): its item's expiry, epoch seconds. */
  expiresAt?: number;
}

/** Items that change together with their counters, idempotently: each item is conditioned so a repeat fails instead of double counting. */
export interface Unit {
  items: TransactItem[];
  counters: CounterDelta[];
}

export class GuardFailed extends Error {
  constructor() {
    super('A guard condition failed');
  }
}

/** One update per counter item, adding every attribute's summed delta (a transaction may touch an item only once). */
export function counterUpdates(counters: CounterDelta[]): TransactItem[] {
  const items = new Map<string, { key: Key; mustExist: boolean; sums: Map<string, number>; expiresAt?: number }>();
  for (const counter of counters) {
    const id = `${counter.key.PK}|${counter.key.SK}`;
    const item = items.get(id) ?? { key: counter.key, mustExist: false, sums: new Map<string, number>() };
    const attribute = counter.attribute ?? 'count';
    item.sums.set(attribute, (item.sums.get(attribute) ?? 0) + counter.delta);
    item.mustExist ||= Boolean(counter.mustExist);
    item.expiresAt ??= counter.expiresAt;
    items.set(id, item);
  }
  return [...items.values()].map(({ key, mustExist, sums, expiresAt }) => {
    const attributes = [...sums.keys()];
    const expiry = expiresAt === undefined ? '' : ' SET expires_at = :expires';
    return {
      Update: {
        TableName: tableName(),
        Key: key,
        UpdateExpression: `ADD ${attributes.map((_, i) => `#a${i} :d${i}`).join(', ')}${expiry}`,
        ...(mustExist && { ConditionExpression: 'attribute_exists(PK)' }),
        ExpressionAttributeNames: Object.fromEntries(attributes.map((a, i) => [`#a${i}`, a])),
        ExpressionAttributeValues: {
          ...Object.fromEntries(attributes.map((a, i) => [`:d${i}`, sums.get(a)!])),
          ...(expiresAt !== undefined && { ':expires': expiresAt }),
        },
      },
    };
  });
}

/** Packs units into transactions: each unit's items, plus one update per distinct counter item, within the limit. */
function chunk(units: Unit[], reserved: number): Unit[][] {
  const chunks: Unit[][] = [];
  let current: Unit[] = [];
  let items = reserved;
  let counters = new Set<string>();
  for (const unit of units) {
    const unitCounters = unit.counters.map((c) => `${c.key.PK}|${c.key.SK}`);
    const added = new Set(unitCounters.filter((id) => !counters.has(id))).size;
    if (current.length && items + unit.items.length + counters.size + added > MAX_TRANSACTION_ITEMS) {
      chunks.push(current);
      current = [];
      items = reserved;
      counters = new Set();
    }
    current.push(unit);
    items += unit.items.length;
    unitCounters.forEach((id) => counters.add(id));
  }
  if (current.length) chunks.push(current);
  return chunks;
}

/**
 * Applies units in as few transactions as fit. When a transaction is cancelled by a unit's
 * condition (that unit was already applied, or no longer applies), its units are retried one
 * by one and the failing ones skipped. `guard` items (e.g. "the contact still has version n",
 * "the group still exists") go into every transaction; if one fails, GuardFailed is thrown and
 * nothing further is applied. Returns the number of units applied.
 */
export async function applyUnits(units: Unit[], guard: TransactItem[] = []): Promise<number> {
  let applied = 0;
  const guardFailed = (indexes: number[]) => indexes.some((index) => index < guard.length);
  const run = async (group: Unit[]) => {
    const items = [...guard, ...group.flatMap((unit) => unit.items), ...counterUpdates(group.flatMap((unit) => unit.counters))];
    try {
      await transact(items);
      return true;
    } catch (error) {
      const failed = failedConditions(error);
      if (!failed) throw error;
      if (guardFailed(failed)) throw new GuardFailed();
      return false;
    }
  };
  for (const group of chunk(units, guard.length)) {
    if (await run(group)) {
      applied += group.length;
      continue;
    }
    for (const unit of group) if (await run([unit])) applied += 1;
  }
  return applied;
}
