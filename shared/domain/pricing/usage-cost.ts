import { costBetween } from '#shared/data/cost-counts';
import { fromUnits } from '#shared/domain/pricing/money';
import { rateCardCurrency } from '#shared/domain/pricing/rate-cards';
import type { Price } from '#shared/records/pricing';

const amounts = (units: Record<string, number>): Record<string, Price> =>
  Object.fromEntries(
    Object.entries(units)
      .filter(([, value]) => value !== 0)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([key, value]) => [key, fromUnits(value)]),
  );

/**
 * What the platform charged the workspace from `from` to `to` (UTC days, inclusive, by the day
 * each message was delivered), in its card's currency: the total, by category and by the
 * recipients' ISO 3166 country (`unknown` when the number tells none), amounts as decimal strings.
 */
export async function usageCost(ws: string, from: string, to: string) {
  const currency = await rateCardCurrency(ws);
  const totals = await costBetween(ws, currency, from, to);
  return { currency, total: fromUnits(totals.total), by_category: amounts(totals.byCategory), by_country: amounts(totals.byCountry) };
}
