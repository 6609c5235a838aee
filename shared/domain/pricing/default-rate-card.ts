import { callingCodeOf } from '#shared/phone';
import { LIST_RATES, OTHER_RATES } from '#shared/domain/pricing/list-rates';
import type { PriceCategory, Price, RateCard } from '#shared/records/pricing';

/** The default card's currency, known without building the card. */
export const DEFAULT_CURRENCY = 'USD';

/**
 * A market's prices by category. Marketing Messages Lite is priced as marketing, and service
 * messages beyond the free tier as utility, as the platform prices them since October 1, 2026 (docs/pricing.md).
 */
function pricesOf([marketing, utility, authentication, authenticationInternational]: (Price | null)[]): Partial<Record<PriceCategory, Price>> {
  return {
    marketing: marketing!,
    marketing_lite: marketing!,
    utility: utility!,
    authentication: authentication!,
    ...(authenticationInternational && { authentication_international: authenticationInternational }),
    service: utility!,
  };
}

/**
 * The card the deployment ships: the platform's USD list rates by calling code. A calling code
 * shared by several regions (+1, +7) takes the first market listing one of them (North America, Russia),
 * since the platform prices by calling code.
 */
function buildDefaultCard(): RateCard {
  const markets: RateCard['markets'] = {};
  for (const { regions, rates } of LIST_RATES) {
    for (const region of regions.split(' ')) {
      const code = callingCodeOf(region);
      if (code && !markets[code]) markets[code] = pricesOf(rates);
    }
  }
  return { currency: DEFAULT_CURRENCY, default: pricesOf(OTHER_RATES), markets };
}

/** Built when the module loads, in the bundles that use it; marked pure so that the others leave it, and the phone metadata it reads, out. */
export const DEFAULT_RATE_CARD: RateCard = /* @__PURE__ */ buildDefaultCard();
