import { env } from '#shared/config';
import { errors } from '#shared/errors';
import { regionOf } from '#shared/phone';
import { MARKET_NOT_ALLOWED } from '#shared/domain/messages/failures';
import type { MessageError } from '#shared/records/message';

/**
 * Whether the platform delivers no marketing template to this number's market (contract §21).
 * A market is a calling code (`"1"`: every number of the North American plan) or a region
 * (`"US"`: the United States' area codes only, as the platform words its pause). Pure: the
 * number is in hand, and calling codes are prefix-free.
 */
export function inClosedMarket(digits: string, markets: readonly string[] = env.closedMarkets): boolean {
  if (!digits || !markets.length) return false;
  const region = markets.some((market) => /^[A-Z]{2}$/.test(market)) ? regionOf(digits) : undefined;
  return markets.some((market) => (/^\d+$/.test(market) ? digits.startsWith(market) : market === region));
}

/** The error a marketing message to a closed market fails with, else null. */
export const closedMarketError = (category: string, digits: string, markets?: readonly string[]): MessageError | null =>
  category === 'MARKETING' && inClosedMarket(digits, markets) ? MARKET_NOT_ALLOWED : null;

/** A single marketing send to a closed market: 422 `market_not_allowed`, nothing sent. */
export function requireOpenMarket(category: string, digits: string): void {
  if (closedMarketError(category, digits)) {
    throw errors.refused('market_not_allowed', `The platform does not deliver marketing templates to +${digits}'s market`);
  }
}
