import { campaignCountsByCode } from '#shared/data/campaign-metrics';
import { messagesByIds } from '#shared/data/message';
import { errors } from '#shared/errors';
import { nowIso } from '#shared/time';
import type { Message, MessageError } from '#shared/records/message';
import { campaignRounds, roundMessageId } from '#shared/domain/campaigns/campaign';
import type { Campaign, Recipient } from '#shared/records/campaign';
import { moveCampaign, requireCampaign } from '#shared/domain/campaigns/lifecycle';
import { AUDIENCE_KEPT_MS } from '#shared/data/audience-chunk';
import { mayPassLater } from '#shared/platform/error-codes';

/**
 * Failures that may pass (contract §15): ours after retries (`send_failed`), and the platform's
 * rate limits, faults and per-user marketing limit (`mayPassLater`). Codes come as text, as the
 * campaign metrics key them (`failed_code#131049`): a platform code is its decimal digits.
 */
const isTransientCode = (code: string) => code === 'send_failed' || (/^(0|[1-9]\d*)$/.test(code) && mayPassLater(Number(code)));
const isTransient = (error: MessageError | null) => error !== null && isTransientCode(String(error.code));

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
  // This very request committed before (its answer was lost): the same answer again.
  const committed = campaign.retries?.find((round) => round.id === retryId);
  if (committed) return retryAnswer(campaign.id, committed.retried ?? 0, committed.skipped ?? 0);
  if (campaign.status !== 'completed') throw errors.invalidState(`The campaign is ${campaign.status}; only a completed campaign can be retried`);
  if (Date.now() - Date.parse(campaign.queued_at!) > RETRY_WITHIN_MS) {
    throw errors.invalidState(
      `The campaign was launched over ${Math.floor(RETRY_WITHIN_MS / 86_400_000)} days ago; its audience is no longer kept for a retry`,
    );
  }
  const { counts, failedByCode } = await campaignCountsByCode(ws, campaignId);
  const retried = Object.entries(failedByCode).reduce((sum, [code, count]) => sum + (isTransientCode(code) ? count : 0), 0);
  if (retried === 0) throw errors.refused('nothing_to_retry', "No recipient's latest message failed with a transient cause");
  const round = { id: retryId, queued_at: nowIso(), retried, skipped: counts.failed - retried };
  // The table stream turns the move into the round's first fan-out job.
  await moveCampaign(ws, campaignId, ['completed'], {
    status: 'running',
    completed_at: null,
    fanout_done: false,
    retry_id: round.id,
    retries: [...(campaign.retries ?? []), round],
    retried_total: (campaign.retried_total ?? 0) + retried,
  });
  return retryAnswer(campaign.id, retried, round.skipped);
}

const retryAnswer = (campaignId: string, retried: number, skipped: number) => ({
  campaign_id: campaignId,
  status: 'running' as const,
  retried_count: retried,
  skipped_count: skipped,
});

/**
 * The current retry round's messages for one chunk of the audience: for each recipient whose
 * latest message (the last round that has one) failed with a transient cause before this round
 * was asked for, a new message built as the launch built it (`build`: from the chunk's values and
 * the launch's template, so a message the fan-out once gave up on is whole again), with
 * `retry_of`, and `queued` or failed with `error(phone)`. A failure that came after the request
 * was not in its count: the next retry takes it, so completion never waits on a message it did not count.
 */
export async function retryMessages(
  campaign: Campaign,
  recipients: Recipient[],
  error: (phone: string) => MessageError | null,
  build: (recipient: Recipient, error: MessageError | null) => Message,
): Promise<Message[]> {
  const rounds = campaignRounds(campaign);
  const current = rounds.pop()!;
  const earlier = await messagesByIds(
    campaign.workspace_id,
    recipients.flatMap((r) => rounds.map((round) => roundMessageId(campaign, round, r.p))),
  );
  const byId = new Map(earlier.map((message) => [message.id, message]));
  return recipients.flatMap((recipient) => {
    const latest = rounds
      .map((round) => byId.get(roundMessageId(campaign, round, recipient.p)))
      .filter((m) => m !== undefined)
      .pop();
    if (!latest || latest.status !== 'failed' || !isTransient(latest.error) || latest.updated_at > current.queued_at) return [];
    return [
      { ...build(recipient, error(recipient.p)), id: roundMessageId(campaign, current, recipient.p), retry_of: latest.id, retry_of_code: latest.error!.code },
    ];
  });
}
