import { readAudienceChunk, writeAudienceChunks } from '#shared/data/audience-chunk';
import { getCampaign, settleSegment } from '#shared/data/campaign';
import { logger } from '#shared/logger';
import { nowIso } from '#shared/time';
import { chunkRecipients, resolveSegmentLater } from '#shared/domain/campaigns/audience';
import type { Campaign } from '#shared/records/campaign';

/**
 * A large segment, resolved by the fan-out once the launch's other chunks are done (see
 * launch.ts): its members not already among the launch's numbers are written as further chunks
 * of the same launch, and the campaign's totals grow by them in one conditional write. Returns
 * the campaign as the fan-out goes on with it.
 */
export async function resolvePendingSegment(campaign: Campaign): Promise<Campaign> {
  const { segment, shared } = campaign.segment_pending!;
  const [ws, id, launchId] = [campaign.workspace_id, campaign.id, campaign.launch_id!];
  const earlier = new Set<string>();
  for (let chunk = 0; chunk < campaign.audience_chunks; chunk++)
    for (const recipient of (await readAudienceChunk(ws, id, launchId, chunk)) ?? []) earlier.add(recipient.p);
  const window = campaign.send_window ?? null;
  const { recipients, unfit } = await resolveSegmentLater(ws, segment, shared, campaign.template!, window !== null, earlier);
  if (unfit) logger.warn('Segment members left out: their values do not fit the template', { campaignId: id, unfit });
  const chunks = chunkRecipients(recipients);
  await writeAudienceChunks(ws, id, launchId, chunks, campaign.audience_chunks);
  const settled = {
    audience_chunks: campaign.audience_chunks + chunks.length,
    total_recipients: (campaign.total_recipients ?? 0) + recipients.length,
    audience_unfit: unfit,
    ...(window && { window_zones: [...new Set([...(campaign.window_zones ?? []), ...recipients.map((r) => r.z ?? window.time_zone)])] }),
  };
  // Settled by an earlier run of this job: go on with what it recorded.
  if (!(await settleSegment(ws, id, launchId, settled))) return (await getCampaign(ws, id))!;
  return { ...campaign, ...settled, segment_pending: undefined };
}

/** The segment's resolution failed on every try: the campaign goes on without its members (nothing waits for ever; the dead-letter alarm has fired). */
export async function abandonPendingSegment(campaign: Campaign): Promise<Campaign> {
  logger.error('Segment resolution gave up: the campaign goes on without its members', { campaignId: campaign.id });
  const settled = { segment_failed_at: nowIso() };
  if (!(await settleSegment(campaign.workspace_id, campaign.id, campaign.launch_id!, settled))) return (await getCampaign(campaign.workspace_id, campaign.id))!;
  return { ...campaign, ...settled, segment_pending: undefined };
}
