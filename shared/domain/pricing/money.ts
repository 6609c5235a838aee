import type { Price } from '#shared/records/pricing';

/**
 * Amounts are counted as integer ten-thousandths of the currency (`"0.0250"` is 250), never as
 * floats, so sums over millions of messages stay exact.
 */
const DECIMALS = 4;
const PRICE = /^(\d{1,9})(?:\.(\d{1,4}))?$/;

/** A decimal string of at most 4 decimals, as rate cards give prices. */
export const isPrice = (value: unknown): value is Price => typeof value === 'string' && PRICE.test(value);

/** `"0.025"` → 250. */
export function toUnits(price: Price): number {
  const [, whole, fraction = ''] = PRICE.exec(price)!;
  return Number(whole) * 10 ** DECIMALS + Number(fraction.padEnd(DECIMALS, '0'));
}

/** 250 → `"0.0250"`; negative sums (never expected) keep their sign. */
export function fromUnits(units: number): Price {
  const sign = units < 0 ? '-' : '';
  const digits = String(Math.abs(units)).padStart(DECIMALS + 1, '0');
  return `${sign}${digits.slice(0, -DECIMALS)}.${digits.slice(-DECIMALS)}`;
}
