import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_RATE_CARD } from '#shared/domain/pricing/default-rate-card';
import { costOf } from '#shared/domain/pricing/message-cost';
import { fromUnits, toUnits } from '#shared/domain/pricing/money';
import { rateCardProblem } from '#shared/domain/pricing/rate-card';
import { readWebhook } from '#shared/platform/webhook-payload';
import type { RateCard, ReportedPricing } from '#shared/records/pricing';

const card: RateCard = {
  currency: 'USD',
  default: { marketing: '0.0600', utility: '0.0080', service: '0.0080' },
  markets: { '55': { marketing: '0.0625', utility: '0.0068' }, '1': { marketing: '0.025' } },
};
const pmp = (category: string | null, type: string | null, billable: boolean | null = null): ReportedPricing => ({
  pricing_model: 'PMP',
  category,
  type,
  billable,
});
const fixture = (name: string) => JSON.parse(readFileSync(join(__dirname, '../fixtures/platform-webhooks', name), 'utf8'));

describe('the cost of a reported message', () => {
  it("prices a regular message by the recipient's market and category, 4 decimals", () => {
    expect(costOf(card, '5511987654321', pmp('marketing', 'regular'))).toEqual({ amount: '0.0625', currency: 'USD', market: '55', country: 'BR' });
    expect(costOf(card, '14155550123', pmp('marketing', 'regular'))).toEqual({ amount: '0.0250', currency: 'USD', market: '1', country: 'US' });
  });

  it("takes the card's default for a market not on it, or a category its market does not list", () => {
    expect(costOf(card, '4915123456789', pmp('marketing', 'regular'))).toMatchObject({ amount: '0.0600', market: 'default', country: 'DE' });
    expect(costOf(card, '5511987654321', pmp('service', 'regular'))).toMatchObject({ amount: '0.0080', market: 'default' });
  });

  it('costs nothing for every free type, whatever its category', () => {
    expect(costOf(card, '5511987654321', pmp('utility', 'free_customer_service', false))).toMatchObject({ amount: '0.0000', market: '55' });
    expect(costOf(card, '5511987654321', pmp('referral_conversion', 'free_entry_point'))).toMatchObject({ amount: '0.0000' });
    expect(costOf(card, '5511987654321', pmp('group_service', 'free_group_customer_service'))).toMatchObject({ amount: '0.0000' });
  });

  it('reads the deprecated billable when an older version sends no type', () => {
    expect(costOf(card, '5511987654321', pmp('marketing', null, true))).toMatchObject({ amount: '0.0625' });
    expect(costOf(card, '5511987654321', pmp('service', null, false))).toMatchObject({ amount: '0.0000' });
  });

  it('cannot price an unknown type or category, another pricing model, or a category the card lacks', () => {
    expect(costOf(card, '5511987654321', pmp('marketing', 'paid_by_moon'))).toBeNull();
    expect(costOf(card, '5511987654321', pmp('telepathy', 'regular'))).toBeNull();
    expect(costOf(card, '5511987654321', pmp('marketing', null))).toBeNull();
    expect(costOf(card, '5511987654321', { ...pmp('marketing', 'regular'), pricing_model: 'CBP' })).toBeNull();
    expect(costOf(card, '5511987654321', { ...pmp('marketing', 'regular'), pricing_model: null })).toBeNull();
    expect(costOf(card, '5511987654321', pmp('authentication', 'regular'))).toBeNull();
  });

  it('spells authentication-international either way', () => {
    const withInternational = { ...card, markets: { '91': { authentication_international: '0.0280' } } };
    expect(costOf(withInternational, '919876543210', pmp('authentication-international', 'regular'))).toMatchObject({ amount: '0.0280', market: '91' });
  });
});

describe('reported pricing in platform webhooks', () => {
  const pricingOf = (name: string) => readWebhook(fixture(name)).statuses[0].pricing;

  it('keeps pricing as the platform gave it, fields it left out null', () => {
    expect(pricingOf('status-sent-pmp-with-conversation.json')).toEqual({ pricing_model: 'PMP', category: 'marketing', type: 'regular', billable: true });
    expect(pricingOf('status-sent-biz-opaque-callback-data-free-customer-service.json')).toEqual({
      pricing_model: 'PMP',
      category: 'utility',
      type: 'free_customer_service',
      billable: false,
    });
    expect(pricingOf('status-delivered-cbp.json')).toEqual({ pricing_model: 'CBP', category: 'service', type: null, billable: true });
    expect(pricingOf('status-sent-v24-no-conversation-no-pricing.json')).toBeUndefined();
  });
});

describe('rate cards', () => {
  it('counts money in integer ten-thousandths', () => {
    expect(toUnits('0.025')).toBe(250);
    expect(toUnits('12')).toBe(120_000);
    expect(fromUnits(250)).toBe('0.0250');
    expect(fromUnits(1_234_567)).toBe('123.4567');
    expect(fromUnits(0)).toBe('0.0000');
  });

  it('ships a default card of the platform list rates by calling code, with its regional groups and "Other" as default', () => {
    expect(rateCardProblem(DEFAULT_RATE_CARD)).toBeUndefined();
    expect(DEFAULT_RATE_CARD.currency).toBe('USD');
    expect(DEFAULT_RATE_CARD.markets['55']).toMatchObject({ marketing: '0.0625', utility: '0.0068' });
    // +1 is North America (Canada and the United States), +7 Russia.
    expect(DEFAULT_RATE_CARD.markets['1'].marketing).toBe('0.0250');
    expect(DEFAULT_RATE_CARD.markets['7'].marketing).toBe('0.0802');
    // Rest of Latin America and Rest of Western Europe, by their countries' calling codes.
    expect(DEFAULT_RATE_CARD.markets['591'].marketing).toBe('0.0740');
    expect(DEFAULT_RATE_CARD.markets['351'].marketing).toBe('0.0592');
    expect(DEFAULT_RATE_CARD.default.marketing).toBe('0.0604');
    expect(DEFAULT_RATE_CARD.markets['91'].authentication_international).toBe('0.0280');
  });

  it.each([
    [null, 'card'],
    [{ currency: 'usd', default: {}, markets: {} }, 'currency'],
    [{ currency: 'USD', default: { marketing: 0.02 }, markets: {} }, 'default.marketing'],
    [{ currency: 'USD', default: { marketing: '-0.02' }, markets: {} }, 'default.marketing'],
    [{ currency: 'USD', default: { marketing: '0.02501' }, markets: {} }, 'default.marketing'],
    [{ currency: 'USD', default: { telepathy: '0.02' }, markets: {} }, 'default.telepathy'],
    [{ currency: 'USD', default: {}, markets: { BR: { marketing: '0.06' } } }, 'markets.BR'],
    [{ currency: 'USD', default: {}, markets: {}, budget: 1 }, 'budget'],
  ])('refuses %j, naming %s', (input, field) => {
    expect(rateCardProblem(input)).toMatchObject({ field });
  });
});
