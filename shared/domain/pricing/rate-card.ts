import type { ErrorDetail } from '#shared/errors';
import { isPrice, toUnits } from '#shared/domain/pricing/money';
import { PRICE_CATEGORIES, type PriceCategory, type RateCard } from '#shared/records/pricing';

/** The price of one message of `category` to a recipient of `callingCode`: its market's, else the card's default; undefined when neither lists it. */
export function rateOf(card: RateCard, callingCode: string | null, category: PriceCategory): { units: number; market: string } | undefined {
  const own = callingCode ? card.markets[callingCode]?.[category] : undefined;
  if (own !== undefined) return { units: toUnits(own), market: callingCode! };
  const fallback = card.default[category];
  return fallback === undefined ? undefined : { units: toUnits(fallback), market: 'default' };
}

const CURRENCY = /^[A-Z]{3}$/;
const CALLING_CODE = /^[1-9]\d{0,3}$/;
const object = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Why a market's prices are not valid, or undefined when they are: known categories only, prices as decimal strings. */
function pricesProblem(prices: unknown, field: string): ErrorDetail | undefined {
  if (!object(prices)) return { field, message: 'Must be an object of prices by category' };
  for (const [category, price] of Object.entries(prices)) {
    if (!(PRICE_CATEGORIES as readonly string[]).includes(category))
      return { field: `${field}.${category}`, message: `Unknown category: one of ${PRICE_CATEGORIES.join(', ')}` };
    if (!isPrice(price)) return { field: `${field}.${category}`, message: 'A price is a decimal string with at most 4 decimals, such as "0.0250"' };
  }
  return undefined;
}

/** Why `input` is not a rate card of contract §20, or undefined when it is one. */
export function rateCardProblem(input: unknown): ErrorDetail | undefined {
  if (!object(input)) return { field: 'card', message: 'A rate card is an object { currency, default, markets }' };
  const extra = Object.keys(input).find((key) => !['currency', 'default', 'markets', 'calls'].includes(key));
  if (extra) return { field: extra, message: 'Not a field of a rate card' };
  if (typeof input.currency !== 'string' || !CURRENCY.test(input.currency)) return { field: 'currency', message: 'An ISO 4217 code such as "USD"' };
  const problem = pricesProblem(input.default, 'default');
  if (problem) return problem;
  if (!object(input.markets)) return { field: 'markets', message: 'Must be an object of prices by country calling code' };
  for (const [market, prices] of Object.entries(input.markets)) {
    if (!CALLING_CODE.test(market)) return { field: `markets.${market}`, message: 'A market is a country calling code, such as "55"' };
    const marketProblem = pricesProblem(prices, `markets.${market}`);
    if (marketProblem) return marketProblem;
  }
  return input.calls === undefined ? undefined : callRatesProblem(input.calls);
}

/** Why a card's `calls` rates are not valid: a per-minute price by default and by market. */
function callRatesProblem(calls: unknown): ErrorDetail | undefined {
  if (!object(calls)) return { field: 'calls', message: 'Must be an object { default?, markets? } of prices per minute' };
  const extra = Object.keys(calls).find((key) => key !== 'default' && key !== 'markets');
  if (extra) return { field: `calls.${extra}`, message: 'Not a field of the call rates' };
  if (calls.default !== undefined && !isPrice(calls.default)) return { field: 'calls.default', message: 'A price is a decimal string with at most 4 decimals' };
  if (calls.markets === undefined) return undefined;
  if (!object(calls.markets)) return { field: 'calls.markets', message: 'Must be an object of prices per minute by country calling code' };
  for (const [market, price] of Object.entries(calls.markets)) {
    if (!CALLING_CODE.test(market)) return { field: `calls.markets.${market}`, message: 'A market is a country calling code, such as "55"' };
    if (!isPrice(price)) return { field: `calls.markets.${market}`, message: 'A price is a decimal string with at most 4 decimals' };
  }
  return undefined;
}
