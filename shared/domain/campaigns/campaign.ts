import { stableId } from '#shared/ids';
import type { CampaignCost } from '#shared/domain/pricing/campaign-cost';
import type { Campaign, CampaignCounts, RetryRound } from '#shared/records/campaign';

/** The launch and each retry round after it, oldest first: each creates at most one message per recipient. */
export const campaignRounds = (c: Campaign): RetryRound[] => [{ id: c.launch_id!, queued_at: c.queued_at! }, ...(c.retries ?? [])];

/** A recipient's message of one round: the same round and recipient always give the same id, so a re-delivered job creates nothing new. */
export const roundMessageId = (c: Campaign, round: RetryRound, phone: string) => stableId(`${c.id}:${round.id}:${phone}`, Date.parse(round.queued_at));

/** The counter attribute a message status moves on the campaign. */
export const COUNTER_OF_STATUS: Record<string, keyof CampaignCounts> = {
  queued: 'pending',
  sent: 'sent',
  delivered: 'delivered',
  read: 'read',
  failed: 'failed',
};

const pct = (part: number, total: number) => (total === 0 ? 0 : Math.round((100 * part) / total));

export const campaignView = (c: Campaign) => ({
  id: c.id,
  name: c.name,
  template_id: c.template_id,
  template_name: c.template_name,
  language: c.language,
  status: c.status,
  scheduled_at: c.scheduled_at,
  send_window: c.send_window ?? null,
  total_recipients: c.total_recipients,
  max_cost: c.max_cost ?? null,
  created_at: c.created_at,
  queued_at: c.queued_at,
  started_at: c.started_at,
  completed_at: c.completed_at,
  cancelled_at: c.cancelled_at,
});

/** Why a running campaign's sending waits: the account-level error that paused its number (contract §16). */
export interface PausedReason {
  code: number | string;
  title: string;
  since: string;
}

/** The counts with their rates (contract §8). */
export const metricsView = (counts: CampaignCounts) => ({
  ...counts,
  delivered_rate_pct: pct(counts.delivered + counts.read, counts.total_messages),
  read_rate_pct: pct(counts.read, counts.total_messages),
});

/** `failedByCode`: the failed messages by error code (contract §15), which only the results carry; `cost`: contract §20. */
export const resultsView = (
  c: Campaign,
  counts: CampaignCounts,
  cost: CampaignCost,
  pausedReason: PausedReason | null = null,
  failedByCode: Record<string, number> = {},
  pausedUntil: string | null = null,
) => ({
  campaign_id: c.id,
  name: c.name,
  status: c.status,
  paused_reason: c.status === 'running' ? pausedReason : null,
  paused_until: pausedUntil,
  metrics: metricsView(counts),
  failed_by_code: failedByCode,
  cost,
  started_at: c.started_at,
  completed_at: c.completed_at,
});
