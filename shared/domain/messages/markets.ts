import { env } from '#shared/config';
import { callingCodeOf, phoneRegion } from '#shared/phone';
import type { Recipient } from '#shared/domain/messages/recipient';
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
  const region = markets.some((market) => /^[A-Z]{2}$/.test(market)) ? (phoneRegion(digits).country ?? undefined) : undefined;
  return markets.some((market) => (/^\d+$/.test(market) ? digits.startsWith(market) : market === region));
}

/**
 * The same for a customer known only by a business-scoped user id: its region is the id's prefix
 * (`US.…`), and a calling code matches the region's (Meta, "Business-scoped user IDs", "Country codes").
 */
export function userInClosedMarket(userId: string, markets: readonly string[] = env.closedMarkets): boolean {
  const region = userId.slice(0, 2);
  return markets.some((market) => market === region || market === callingCodeOf(region));
}

const recipientInClosedMarket = (recipient: Recipient, markets?: readonly string[]) =>
  recipient.phone ? inClosedMarket(recipient.phone, markets) : userInClosedMarket(recipient.userId!, markets);

/** The error a marketing message to a closed market fails with, else null. */
export const closedMarketError = (category: string, recipient: Recipient, markets?: readonly string[]): MessageError | null =>
  category === 'MARKETING' && recipientInClosedMarket(recipient, markets) ? MARKET_NOT_ALLOWED : null;
