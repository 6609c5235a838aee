import { GetCommand, PutCommand } from '#shared/data/table/commands';
import { db, tableName } from '#shared/data/table/client';
import type { RateCard } from '#shared/records/pricing';
import { nowIso } from '#shared/time';

/** A workspace's own rate card (contract §20), set by the operator: one item, replaced whole. */
const rateCardKey = (ws: string) => ({ PK: `WS#${ws}#RATE_CARD`, SK: 'RATE_CARD' });

export async function putRateCard(ws: string, card: RateCard): Promise<void> {
  await db().send(new PutCommand({ TableName: tableName(), Item: { ...rateCardKey(ws), ...card, updated_at: nowIso() } }));
}

/** The workspace's own card, or undefined when it has none (the deployment's default applies). */
export async function getRateCard(ws: string): Promise<RateCard | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: rateCardKey(ws) }));
  return Item ? { currency: Item.currency as string, default: Item.default as RateCard['default'], markets: Item.markets as RateCard['markets'] } : undefined;
}
