import { fromUnits } from '#shared/domain/pricing/money';
import { rateCardOf } from '#shared/domain/pricing/rate-cards';
import type { Price } from '#shared/records/pricing';

/** A campaign's cost in its results (contract §20): in the currency of the workspace's card. */
export interface CampaignCost {
  currency: string;
  /** Estimated at launch: null until estimates exist (issue 28, item 3). */
  estimated: Price | null;
  /** What the platform charged for its delivered messages so far. */
  billed: Price;
}

/** The cost view of a campaign's billed totals by currency (ten-thousandths): the workspace card's currency's. */
export async function campaignCost(ws: string, billedByCurrency: Record<string, number>): Promise<CampaignCost> {
  const { currency } = await rateCardOf(ws);
  return { currency, estimated: null, billed: fromUnits(billedByCurrency[currency] ?? 0) };
}
