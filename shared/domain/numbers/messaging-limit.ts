/**
 * The platform's messaging limit: unique customers a business portfolio may message outside a
 * customer service window in a rolling 24 hours, shared by all its numbers (Meta, "Messaging
 * limits"). The phone number object names it as a tier (`TIER_2K`), `business_capability_update`
 * as a number (`2000`, `-1` for unlimited); the service keeps the tier.
 */
const UNLIMITED = 'TIER_UNLIMITED';

/** The customers a tier allows: `TIER_250` → 250, `TIER_2K` → 2000; null for unlimited or a tier that names no number (`TIER_NOT_SET`). */
export function customersOfTier(tier: string | null): number | null {
  const match = tier ? /^TIER_(\d+)(K?)$/.exec(tier) : null;
  return match ? Number(match[1]) * (match[2] ? 1000 : 1) : null;
}

/** The tier of a limit given as a number: `2000` → `TIER_2K`, `-1` → `TIER_UNLIMITED`. */
export function tierOfCustomers(limit: number): string {
  if (limit < 0) return UNLIMITED;
  return limit >= 1000 && limit % 1000 === 0 ? `TIER_${limit / 1000}K` : `TIER_${limit}`;
}

export interface LimitWarning {
  limit: number;
  used_24h: number;
  audience: number;
}

/** A launch's warning when its new recipients exceed what is left of the limit (contract §21), else null; an unknown or unlimited limit warns of nothing. */
export function limitWarning(tier: string | null, used24h: number, audience: number): LimitWarning | null {
  const limit = customersOfTier(tier);
  if (limit === null || audience <= Math.max(0, limit - used24h)) return null;
  return { limit, used_24h: used24h, audience };
}
