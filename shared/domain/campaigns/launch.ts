import { writeAudienceChunks } from '#shared/data/audience-chunk';
import { approvedTemplate } from '#shared/domain/templates/catalog';
import { errors } from '#shared/errors';
import { nowIso } from '#shared/time';
import { resolveAudience, type LaunchAudience, type Recipient } from '#shared/domain/campaigns/audience';
import { moveCampaign, requireCampaign } from '#shared/domain/campaigns/lifecycle';

/** Recipients per fan-out job, and a size bound that keeps a chunk item far below DynamoDB's 400 KB. */
const CHUNK_RECIPIENTS = 500;
const CHUNK_BYTES = 300_000;

function chunk(recipients: Recipient[]): Recipient[][] {
  const chunks: Recipient[][] = [];
  let current: Recipient[] = [];
  let bytes = 0;
  for (const recipient of recipients) {
    const size = Buffer.byteLength(JSON.stringify(recipient), 'utf8');
    if (current.length && (current.length === CHUNK_RECIPIENTS || bytes + size > CHUNK_BYTES)) {
      chunks.push(current);
      current = [];
      bytes = 0;
    }
    current.push(recipient);
    bytes += size;
  }
  if (current.length) chunks.push(current);
  return chunks;
}

/**
 * Validates and resolves the audience, stores it in chunks under this launch's id, then moves
 * the campaign out of `draft` (the only write that commits the launch: a failed launch leaves
 * the campaign draft). The table stream turns the move into the first fan-out job, or the
 * start schedule.
 */
export async function launchCampaign(ws: string, campaignId: string, audience: LaunchAudience, launchId: string) {
  const campaign = await requireCampaign(ws, campaignId);
  if (campaign.status !== 'draft') throw errors.invalidState(`The campaign is ${campaign.status}; only a draft can be launched`);
  const template = await approvedTemplate(ws, campaign.template_name, campaign.language);
  // The launch's window replaces the one the campaign was created with.
  const window = audience.send_window ?? campaign.send_window ?? null;
  const { recipients, optedOut, firstInput } = await resolveAudience(ws, audience, template, window !== null);
  const chunks = chunk(recipients);
  await writeAudienceChunks(ws, campaignId, launchId, chunks);

  const now = nowIso();
  const later = campaign.scheduled_at !== null && Date.parse(campaign.scheduled_at) > Date.now();
  const launched = await moveCampaign(ws, campaignId, ['draft'], {
    status: later ? 'scheduled' : 'running',
    launch_id: launchId,
    audience_chunks: chunks.length,
    total_recipients: chunks.reduce((sum, c) => sum + c.length, 0),
    template,
    send_window: window,
    window_zones: window ? [...new Set(recipients.map((r) => r.z ?? window.time_zone))] : null,
    first_input: firstInput,
    queued_at: now,
    ...(later ? {} : { started_at: now }),
  });
  return {
    campaign_id: launched.id,
    name: launched.name,
    status: launched.status,
    queued_at: launched.queued_at,
    total_recipients: launched.total_recipients,
    // Counted at launch; the fan-out checks each number again, so a later opt-out also ends `failed`.
    excluded_opted_out: optedOut,
  };
}
