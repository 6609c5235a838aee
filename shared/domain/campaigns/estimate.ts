import { approvedTemplate } from '#shared/domain/templates/catalog';
import { campaignSender } from '#shared/domain/numbers/sender';
import { resolveAudience, type LaunchAudience } from '#shared/domain/campaigns/audience';
import { requireCampaign } from '#shared/domain/campaigns/lifecycle';
import { priceAudience } from '#shared/domain/pricing/audience-estimate';
import { rateCardOf } from '#shared/domain/pricing/rate-cards';
import type { PriceCategory } from '#shared/records/pricing';
import type { Workspace } from '#shared/records/workspace';

/**
 * What launching the campaign with this body would cost, sending and storing nothing (contract
 * §20): the audience resolved as the launch resolves it (sources, de-duplication, exclusions, a
 * segment of any size), less the numbers that opted out of a MARKETING template (never sent),
 * priced by the workspace's card at the template's category. Refused as the launch would be.
 */
export async function estimateCampaign(workspace: Workspace, campaignId: string, audience: LaunchAudience & { from?: string }) {
  const ws = workspace.id;
  const campaign = await requireCampaign(ws, campaignId);
  const sender = await campaignSender(workspace, campaign, audience.from);
  const template = await approvedTemplate(workspace, sender.waba_id, campaign.template_name, campaign.language);
  const [{ recipients, optedOutPhones, closedMarketPhones }, card] = await Promise.all([resolveAudience(ws, audience, template), rateCardOf(ws)]);
  // Neither opted-out customers nor markets closed to marketing (contract §21) are sent, so neither is priced.
  const priced = recipients.map((recipient) => recipient.p).filter((phone) => !optedOutPhones.has(phone) && !closedMarketPhones.has(phone));
  return { ...priceAudience(card, template.category.toLowerCase() as PriceCategory, priced), excluded_opted_out: optedOutPhones.size };
}
