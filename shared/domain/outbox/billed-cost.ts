import type { CountChange } from '#shared/data/counted-batch';
import { billedCostAttribute, costDayAttributes } from '#shared/data/cost-counts';
import { toUnits } from '#shared/domain/pricing/money';
import type { Message } from '#shared/records/message';

/** A message's cost the platform has now charged: its amount in ten-thousandths, and what usage breaks it down by. */
export interface BilledCost {
  units: number;
  currency: string;
  category: string;
  country: string;
  /** The UTC day it was charged (its delivery, else its read): usage counts it on that day. */
  day: string;
}

/** Charged: the platform charges a message once delivered (docs/pricing.md); a priced message that is never delivered costs nothing. */
const isBilled = (message: Message | undefined): boolean => Boolean(message?.cost && (message.status === 'delivered' || message.status === 'read'));

/**
 * The cost a change of a message makes billed: when the message is newly both priced and
 * delivered (or read), whichever came last. Once billed it stays so (pricing is set once, and
 * the status never moves back), so each message's cost is billed exactly once. A free message
 * ("0.0000") adds nothing to count.
 */
export function newlyBilled(now: Message | undefined, before: Message | undefined): BilledCost | undefined {
  if (!isBilled(now) || isBilled(before) || toUnits(now!.cost!.amount) === 0) return undefined;
  const { cost, pricing, metadata } = now!;
  const at = metadata.delivered_at ?? metadata.read_at ?? now!.updated_at;
  return {
    units: toUnits(cost!.amount),
    currency: cost!.currency,
    category: pricing?.category?.replace('-', '_') ?? 'unknown',
    country: cost!.country ?? 'unknown',
    day: at.slice(0, 10),
  };
}

/** The counters a billed cost moves: its campaign's billed total, and the workspace's cost of that day by category and country. */
export function billedCostChanges(ws: string, campaignId: string | null, billed: BilledCost): CountChange[] {
  const day = { ws, costDay: billed.day };
  return [
    ...(campaignId ? [{ ws, campaignId, attribute: billedCostAttribute(billed.currency), delta: billed.units }] : []),
    ...costDayAttributes(billed.currency, billed.category, billed.country).map((attribute) => ({ ...day, attribute, delta: billed.units })),
  ];
}
