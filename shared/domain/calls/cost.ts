/**
 * What a call costs (contract §23, docs/platform-calling.md §6): a customer's call is free; the
 * business's is charged per started 6-second pulse at the rate card's per-minute `calls` price of
 * the called number's market, else its default. Without call rates on the card it is not priced (null).
 */
import { fromUnits, toUnits } from '#shared/domain/pricing/money';
import { phoneRegion } from '#shared/phone';
import type { Call } from '#shared/records/call';
import type { RateCard } from '#shared/records/pricing';

const PULSE_S = 6;
const PULSES_A_MINUTE = 60 / PULSE_S;

export function callCost(card: RateCard, call: Pick<Call, 'direction' | 'phone_number' | 'duration_s'>): Call['cost'] {
  const { callingCode } = phoneRegion(call.phone_number);
  if (call.direction === 'inbound') return { amount: fromUnits(0), currency: card.currency, market: callingCode ?? 'default' };
  const own = callingCode ? card.calls?.markets?.[callingCode] : undefined;
  const perMinute = own ?? card.calls?.default;
  if (perMinute === undefined) return null;
  const pulses = Math.ceil((call.duration_s ?? 0) / PULSE_S);
  return { amount: fromUnits(Math.round((pulses * toUnits(perMinute)) / PULSES_A_MINUTE)), currency: card.currency, market: own ? callingCode! : 'default' };
}
