import { campaignCountsByCode } from '#shared/data/campaign-metrics';
import { messagesByIds } from '#shared/data/message';
import { errors } from '#shared/errors';
import { nowIso } from '#shared/time';
import type { Message, MessageError } from '#shared/domain/messages/message';
import { campaignRounds, roundMessageId, type Campaign } from '#shared/domain/campaigns/campaign';
import type { Recipient } from '#shared/domain/campaigns/audience';
import { moveCampaign, requireCampaign } from '#shared/domain/campaigns/lifecycle';
import { AUDIENCE_KEPT_MS } from '#shared/data/audience-chunk';

/** Failures that may pass (contract §15): rate limits, the platform's faults, its per-user marketing limit, ours after retries. */
export const TRANSIENT_CODES = new Set(['send_failed', '130429', '131000', '131016', '131049', '131056', '131057', '2', '1', '4', '80007']);
const isTransient = (error: MessageError | null) => error !== null && TRANSIENT_CODES.has(String(error.code));

/** A retry reads the launch's audience again: only while it is kept, with a day to spare for the fan-out. */
const RETRY_WITHIN_MS = AUDIENCE_KEPT_MS - 86_400_000;

/**
 * POST /campaigns/{id}/retry (contract §15). The metrics count each recipient by its latest
 * message, and a failed message is final, so on a completed campaign `failed_by_code` tells
 * exactly how many recipients a retry re-sends: answered at once, while the fan-out creates the
 * messages in the background, one round of ids per retry (so a repeated job creates nothing twice).
 * Moving the campaign back to `running` is the one write that commits the retry.
 */
export async function retryCampaign(ws: string, campaignId: string, retryId: string) {
  const campaign = await requireCampaign(ws, campaignId);
  if (campaign.status !== 'completed') throw errors.invalidState(`The campaign is ${campaign.status}; only a completed campaign can be retried`);
  if (Date.now() - Date.parse(campaign.queued_at!) > RETRY_WITHIN_MS) {
    throw errors.invalidState(`The campaign was launched over ${Math.floor(RETRY_WITHIN_MS / 86_400_000)} days ago; its audience is no longer kept for a retry`);
  }
  const { counts, failedByCode } = await campaignCountsByCode(ws, campaignId);
  const retried = Object.entries(failedByCode).reduce((sum, [code, count]) => sum + (TRANSIENT_CODES.has(code) ? count : 0), 0);
  if (retried === 0) throw errors.refused('nothing_to_retry', 'No recipient\'s latest message failed with a transient cause');
  const round = { id: retryId, queued_at: nowIso() };
  // The table stream turns the move into the round's first fan-out job.
  await moveCampaign(ws, campaignId, ['completed'], {
    status: 'running',
    completed_at: null,
    fanout_done: false,
    retry_id: round.id,
    retries: [...(campaign.retries ?? []), round],
    retried_total: (campaign.retried_total ?? 0) + retried,
  });
  return { campaign_id: campaign.id, status: 'running' as const, retried_count: retried, skipped_count: counts.failed - retried };
}

/**
 * The current retry round's messages for one chunk of the audience: for each recipient whose
 * latest message (the last round that has one) failed with a transient cause, a copy of it with
 * `retry_of`, `queued`, or failed with `error` (given when the round must end without sending).
 */
export async function retryMessages(campaign: Campaign, recipients: Recipient[], error: (recipient: string) => MessageError | null, now: string): Promise<Message[]> {
  const rounds = campaignRounds(campaign);
  const current = rounds.pop()!;
  const earlier = await messagesByIds(campaign.workspace_id, recipients.flatMap((r) => rounds.map((round) => roundMessageId(campaign, round, r.p))));
  const byId = new Map(earlier.map((message) => [message.id, message]));
  return recipients.flatMap((recipient) => {
    const latest = rounds.map((round) => byId.get(roundMessageId(campaign, round, recipient.p))).filter((m) => m !== undefined).pop();
    if (!latest || latest.status !== 'failed' || !isTransient(latest.error)) return [];
    const failure = error(recipient.p);
    return [
      {
        id: roundMessageId(campaign, current, recipient.p),
        workspace_id: latest.workspace_id,
        phone_number: latest.phone_number,
        direction: 'outbound',
        message_type: latest.message_type,
        template_name: latest.template_name,
        language: latest.language,
        content: latest.content,
        template_parameters: latest.template_parameters,
        rendered: latest.rendered,
        campaign_id: campaign.id,
        ...(latest.time_zone && { time_zone: latest.time_zone }),
        status: failure ? 'failed' : 'queued',
        retry_of: latest.id,
        retry_of_code: latest.error!.code,
        provider_message_id: null,
        error: failure,
        metadata: { sent_at: null, delivered_at: null, read_at: null, failed_at: failure ? now : null },
        created_at: now,
        updated_at: now,
      } satisfies Message,
    ];
  });
}
