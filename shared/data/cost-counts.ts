import { queryAll } from '#shared/data/table/query-all';
import { MESSAGE_SHARDS } from '#shared/data/message-shard';

/*
 * Billed costs (contract §20), in integer ten-thousandths of their currency, moved by the stream's
 * counting transactions (shared/domain/outbox/counts.ts): a campaign's total beside its metrics,
 * and a workspace's per-day totals by category and country, sharded like the message counts so
 * a busy workspace spreads its writes. Attribute names carry the currency, so a card changed to
 * another currency never adds unlike amounts.
 */

const BILLED = 'cost_billed#';

/** The campaign metric attribute of its billed cost in `currency`. */
export const billedCostAttribute = (currency: string) => `${BILLED}${currency}`;

/** A workspace's billed cost of one UTC day, on one shard. */
export const costDayKey = (ws: string, shard: number, day: string) => ({ PK: `WS#${ws}#COST#${shard}`, SK: day });

const TOTAL = 'total#';
const CATEGORY = 'category#';
const COUNTRY = 'country#';

/** The day item's attributes one billed cost adds to. */
export const costDayAttributes = (currency: string, category: string, country: string) => [
  `${TOTAL}${currency}`,
  `${CATEGORY}${currency}#${category}`,
  `${COUNTRY}${currency}#${country}`,
];

/** A campaign's billed cost by currency, in ten-thousandths, from its metric shards as read. */
export function billedByCurrency(shards: Record<string, unknown>[]): Record<string, number> {
  const billed: Record<string, number> = {};
  for (const shard of shards)
    for (const [attribute, value] of Object.entries(shard))
      if (attribute.startsWith(BILLED)) billed[attribute.slice(BILLED.length)] = (billed[attribute.slice(BILLED.length)] ?? 0) + Number(value);
  return billed;
}

export interface CostTotals {
  total: number;
  byCategory: Record<string, number>;
  byCountry: Record<string, number>;
}

/** The workspace's billed cost in `currency` from `from` to `to` (YYYY-MM-DD, inclusive), summed over days and shards. */
export async function costBetween(ws: string, currency: string, from: string, to: string): Promise<CostTotals> {
  const readShard = (shard: number) =>
    queryAll<Record<string, unknown>>({
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': costDayKey(ws, shard, from).PK, ':from': from, ':to': to },
    });
  const items = (await Promise.all(Array.from({ length: MESSAGE_SHARDS }, (_, shard) => readShard(shard)))).flat();
  const totals: CostTotals = { total: 0, byCategory: {}, byCountry: {} };
  const add = (into: Record<string, number>, key: string, units: number) => (into[key] = (into[key] ?? 0) + units);
  for (const item of items) {
    for (const [attribute, value] of Object.entries(item)) {
      const units = Number(value);
      if (attribute === `${TOTAL}${currency}`) totals.total += units;
      else if (attribute.startsWith(`${CATEGORY}${currency}#`)) add(totals.byCategory, attribute.slice(CATEGORY.length + currency.length + 1), units);
      else if (attribute.startsWith(`${COUNTRY}${currency}#`)) add(totals.byCountry, attribute.slice(COUNTRY.length + currency.length + 1), units);
    }
  }
  return totals;
}
