/** What a message costs (contract §20): the platform's pricing as reported, our cost from the rate card. */

/** The rate card's categories; the platform's reports name the same ones (its `authentication-international` spelled with `_`). */
export const PRICE_CATEGORIES = ['marketing', 'marketing_lite', 'utility', 'authentication', 'authentication_international', 'service'] as const;
export type PriceCategory = (typeof PRICE_CATEGORIES)[number];

/** A price or an amount: a decimal string of the currency's units (`"0.0250"`). */
export type Price = string;

/**
 * A rate card: price per message by market and category, in one currency. A market is a country
 * calling code (`"55"`); the platform's regional "rest of" groups are listed by their countries'
 * calling codes. A recipient whose market is not listed, or a category its market does not list, is priced by `default`.
 */
export interface RateCard {
  currency: string;
  default: Partial<Record<PriceCategory, Price>>;
  markets: Record<string, Partial<Record<PriceCategory, Price>>>;
  /**
   * Business-initiated calls (contract §23): the price of a minute by the called number's market,
   * else `default`; a call is charged per started 6-second pulse (a tenth of it). Absent: calls are not priced.
   */
  calls?: { default?: Price; markets?: Record<string, Price> };
}

/**
 * `pricing` of a status report as the platform gave it (docs/platform-payloads.md): `pricing_model`
 * `PMP` since July 2025, `type` (`regular`, `free_customer_service`, `free_entry_point`, …), and the
 * deprecated `billable`, which older versions send without `type`. Absent fields are null.
 */
export interface ReportedPricing {
  pricing_model: string | null;
  category: string | null;
  type: string | null;
  billable: boolean | null;
}

/**
 * What the message cost: `amount` with 4 decimals in the card's `currency`; `market` the card's
 * market it was priced by (a calling code, or `default`), `country` the recipient's ISO 3166 code (null when unknown).
 */
export interface MessageCost {
  amount: Price;
  currency: string;
  market: string;
  country: string | null;
}
