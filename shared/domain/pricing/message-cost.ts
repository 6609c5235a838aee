import { phoneRegion } from '#shared/phone';
import { fromUnits } from '#shared/domain/pricing/money';
import { rateOf } from '#shared/domain/pricing/rate-card';
import { PRICE_CATEGORIES, type MessageCost, type PriceCategory, type RateCard, type ReportedPricing } from '#shared/records/pricing';

/**
 * Whether the platform charges for the message, by its report (docs/pricing.md): `regular` is
 * charged, every `free_…` type is not; without `type` (older versions) the deprecated `billable`
 * says it. Undefined when the report does not tell (an unknown type, or neither field).
 */
function charged(pricing: ReportedPricing): boolean | undefined {
  if (pricing.type === 'regular') return true;
  if (pricing.type?.startsWith('free_')) return false;
  if (pricing.type === null && pricing.billable !== null) return pricing.billable;
  return undefined;
}

/** The card's category a report names: the platform writes `authentication-international` in some places. */
function categoryOf(pricing: ReportedPricing): PriceCategory | undefined {
  const category = pricing.category?.replace('-', '_');
  return (PRICE_CATEGORIES as readonly string[]).includes(category ?? '') ? (category as PriceCategory) : undefined;
}

/**
 * What a message to `phone` cost, from the pricing its status report gave: "0.0000" for a free
 * type, else the card's price of its category in the recipient's market (the card's default when
 * the market is not on it). Null when the report cannot be priced per message: another pricing
 * model than `PMP` (conversation-based reports before July 2025), an unknown type, or a charged
 * message of an unknown category or one the card has no price for.
 */
export function costOf(card: RateCard, phone: string, pricing: ReportedPricing): MessageCost | null {
  const isCharged = charged(pricing);
  if (pricing.pricing_model !== 'PMP' || isCharged === undefined) return null;
  const { callingCode, country } = phoneRegion(phone);
  const market = callingCode && card.markets[callingCode] ? callingCode : 'default';
  if (!isCharged) return { amount: fromUnits(0), currency: card.currency, market, country };
  const category = categoryOf(pricing);
  const rate = category && rateOf(card, callingCode, category);
  return rate ? { amount: fromUnits(rate.units), currency: card.currency, market: rate.market, country } : null;
}
