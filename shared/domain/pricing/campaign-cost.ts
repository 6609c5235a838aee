import { fromUnits } from '#shared/domain/pricing/money';
import { rateCardCurrency } from '#shared/domain/pricing/rate-cards';
import type { Price } from '#shared/records/pricing';
import type { Campaign } from '#shared/records/campaign';

/** A campaign's cost in its results (contract §20): in the currency of the workspace's card. */
export interface CampaignCost {
  currency: string;
  /** Estimated at launch; null when the audience was not all known then (a large segment), or in another currency than the card's now. */
  estimated: Price | null;
  /** What the platform charged for its delivered messages so far. */
  billed: Price;
}

/** The cost view of a campaign and its billed totals by currency (ten-thousandths): the workspace card's currency's. */
export async function campaignCost(campaign: Campaign, billedByCurrency: Record<string, number>): Promise<CampaignCost> {
  const currency = await rateCardCurrency(campaign.workspace_id);
  const estimated = campaign.estimated_cost?.currency === currency ? campaign.estimated_cost.total : null;
  return { currency, estimated, billed: fromUnits(billedByCurrency[currency] ?? 0) };
}
