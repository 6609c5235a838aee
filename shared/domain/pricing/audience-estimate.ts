import { phoneRegion } from '#shared/phone';
import { fromUnits } from '#shared/domain/pricing/money';
import { rateOf } from '#shared/domain/pricing/rate-card';
import type { PriceCategory, RateCard } from '#shared/records/pricing';

/**
 * What sending one template message of `category` to each of `phones` would cost by the card
 * (contract §20 estimate), by the recipients' ISO 3166 country (`unknown` when the number tells
 * none), countries in order. A country whose market has no price for the category, nor the card's
 * default, shows `rate` and `amount` null and is left out of `total`. The platform's free types
 * (a service window, a free entry point) cannot be known before sending: the estimate is the list price.
 */
export function priceAudience(card: RateCard, category: PriceCategory, phones: string[]) {
  const byCountry = new Map<string, { recipients: number; rate: number | undefined }>();
  for (const phone of phones) {
    const { callingCode, country } = phoneRegion(phone);
    const key = country ?? 'unknown';
    const entry = byCountry.get(key) ?? { recipients: 0, rate: rateOf(card, callingCode, category)?.units };
    entry.recipients++;
    byCountry.set(key, entry);
  }
  const countries = [...byCountry.entries()].sort(([a], [b]) => a.localeCompare(b));
  const total = countries.reduce((sum, [, { recipients, rate }]) => sum + (rate ?? 0) * recipients, 0);
  return {
    currency: card.currency,
    total: fromUnits(total),
    recipients: phones.length,
    by_country: countries.map(([country, { recipients, rate }]) => ({
      country,
      recipients,
      rate: rate === undefined ? null : fromUnits(rate),
      amount: rate === undefined ? null : fromUnits(rate * recipients),
    })),
  };
}
