import { writeAudienceChunks } from '#shared/data/audience-chunk';
import { approvedTemplate } from '#shared/domain/templates/catalog';
import { campaignSender } from '#shared/domain/numbers/sender';
import type { Workspace } from '#shared/records/workspace';
import { errors } from '#shared/errors';
import { nowIso } from '#shared/time';
import { checkSharedValues, chunkRecipients, resolveAudience, sharedInput, type LaunchAudience } from '#shared/domain/campaigns/audience';
import { moveCampaign, requireCampaign } from '#shared/domain/campaigns/lifecycle';
import { segmentReadBound } from '#shared/domain/campaigns/segment';
import type { Segment } from '#shared/records/campaign';
import { env } from '#shared/config';
import { priceAudience } from '#shared/domain/pricing/audience-estimate';
import { rateCardOf } from '#shared/domain/pricing/rate-cards';
import type { PriceCategory } from '#shared/records/pricing';
import { cachedNumbers } from '#shared/domain/numbers/numbers';
import { limitWarning } from '#shared/domain/numbers/messaging-limit';
import { sentInLastDay } from '#shared/data/sent-hours';

/**
 * A segment that reads more contacts than this is resolved by the fan-out after the launch has
 * answered, so the launch stays far below the API's 29 s whatever the contact book's size
 * (docs/campaigns.md: resolving 50,000 contacts takes about 10 s on DynamoDB Local).
 * SEGMENT_RESOLVED_LATER_ABOVE lowers it in tests.
 */
const resolvedLaterAbove = () => env.segmentResolvedLaterAbove;

/** Whether the launch's segment selects contacts and reads too many of them to be resolved before answering. */
async function resolvedLater(ws: string, segment: Segment | undefined): Promise<boolean> {
  const selects = segment && (segment.tags_any?.length || segment.tags_all?.length || Object.keys(segment.custom_fields ?? {}).length);
  return Boolean(selects) && (await segmentReadBound(ws, segment!)) > resolvedLaterAbove();
}

/**
 * Validates and resolves the audience, stores it in chunks under this launch's id, then moves
 * the campaign out of `draft` (the only write that commits the launch: a failed launch leaves
 * the campaign draft). The table stream turns the move into the first fan-out job, or the
 * start schedule. A large segment is kept on the campaign instead (`segment_pending`): the
 * fan-out resolves it after the other sources' chunks, so the answer counts those only.
 */
export async function launchCampaign(
  workspace: Workspace,
  campaignId: string,
  audience: LaunchAudience & { from?: string; max_cost?: string },
  launchId: string,
) {
  const ws = workspace.id;
  const campaign = await requireCampaign(ws, campaignId);
  if (campaign.status !== 'draft') throw errors.invalidState(`The campaign is ${campaign.status}; only a draft can be launched`);
  // `from` at launch replaces the number the campaign was created with (contract §17).
  const sender = await campaignSender(workspace, campaign, audience.from);
  const template = await approvedTemplate(workspace, sender.waba_id, campaign.template_name, campaign.language);
  // The launch's window replaces the one the campaign was created with.
  const window = audience.send_window ?? campaign.send_window ?? null;
  const later = await resolvedLater(ws, audience.segment);
  // Resolved later, the segment only excludes now; its members come after every other source anyway.
  const resolvedNow = later ? { ...audience, segment: { exclude_tags: audience.segment!.exclude_tags } } : audience;
  if (later) checkSharedValues(template, sharedInput(audience));
  const [{ recipients, optedOut, optedOutPhones, closedMarket, closedMarketPhones, firstInput }, limit] = await Promise.all([
    resolveAudience(ws, resolvedNow, template, { withZones: window !== null, allowEmpty: later }),
    portfolioLimitOf(workspace, sender.id),
  ]);
  // Estimated as POST /estimate would, when the whole audience is known now (a segment resolved later is not).
  const estimate = later
    ? undefined
    : priceAudience(
        await rateCardOf(ws),
        template.category.toLowerCase() as PriceCategory,
        recipients.map((r) => r.p).filter((phone) => !optedOutPhones.has(phone) && !closedMarketPhones.has(phone)),
      );
  const chunks = chunkRecipients(recipients);
  await writeAudienceChunks(ws, campaignId, launchId, chunks);

  const at = nowIso();
  const scheduled = campaign.scheduled_at !== null && Date.parse(campaign.scheduled_at) > Date.now();
  const launched = await moveCampaign(ws, campaignId, ['draft'], {
    status: scheduled ? 'scheduled' : 'running',
    business_number_id: sender.id,
    launch_id: launchId,
    audience_chunks: chunks.length,
    total_recipients: recipients.length,
    ...(later && { segment_pending: { segment: audience.segment, shared: sharedInput(audience) } }),
    template,
    send_window: window,
    // The launch's budget replaces the one the campaign was created with (contract §20).
    max_cost: audience.max_cost ?? campaign.max_cost ?? null,
    window_zones: window ? [...new Set(recipients.map((r) => r.z ?? window.time_zone))] : null,
    first_input: recipients.length ? firstInput : sharedInput(audience),
    ...(estimate && { estimated_cost: { currency: estimate.currency, total: estimate.total } }),
    queued_at: at,
    ...(scheduled ? {} : { started_at: at }),
  });
  return {
    campaign_id: launched.id,
    name: launched.name,
    status: launched.status,
    queued_at: launched.queued_at,
    total_recipients: launched.total_recipients,
    // Counted at launch; the fan-out checks each number again, so a later opt-out also ends `failed`.
    excluded_opted_out: optedOut,
    // Counted at launch as the fan-out fails them: marketing to a market the platform closes (contract §21).
    excluded_market_not_allowed: closedMarket,
    // False: a large segment is still being resolved, and both counts leave its members out (docs/campaigns.md).
    audience_complete: !later,
    // Sent all the same: the platform decides (contract §21).
    limit_warning: limitWarning(limit.tier, limit.used24h, recipients.length - optedOut - closedMarket),
  };
}

/** The sending number's portfolio limit and what the workspace used of it in the last day (docs/numbers.md, "Portfolio messaging limits"). */
async function portfolioLimitOf(workspace: Workspace, numberId: string) {
  const [numbers, used24h] = await Promise.all([cachedNumbers(workspace), sentInLastDay(workspace.id)]);
  return { tier: numbers.find((n) => n.id === numberId)?.messaging_limit ?? null, used24h };
}
