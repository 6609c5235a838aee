import type { Template } from '#shared/domain/templates/template';
import type { TemplateInput } from '#shared/domain/templates/parameters';
import type { SendWindow } from '#shared/domain/campaigns/send-window';
import type { Segment } from '#shared/domain/campaigns/segment';
import { stableId } from '#shared/ids';

export const CAMPAIGN_STATUSES = ['draft', 'scheduled', 'running', 'completed', 'cancelled'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/** Message counts by status, moved atomically with each message (contract §8). */
export interface CampaignCounts {
  total_messages: number;
  pending: number;
  sent: number;
  delivered: number;
  read: number;
  failed: number;
}

export interface Campaign {
  id: string;
  workspace_id: string;
  name: string;
  template_id: string;
  template_name: string;
  language: string;
  /** The template as it was at launch: the fan-out renders it for each recipient. */
  template?: Template;
  status: CampaignStatus;
  scheduled_at: string | null;
  created_at: string;
  queued_at: string | null;
  started_at: string | null;
  completed_at: string | null;
  cancelled_at: string | null;
  total_recipients: number | null;
  /** The launch whose audience chunks the fan-out reads. */
  launch_id: string | null;
  audience_chunks: number;
  /** Set when the last chunk's messages exist: completion waits for it. */
  fanout_done: boolean;
  /** The counts when the campaign completed (carried by the campaign.completed event). */
  completion_counts?: CampaignCounts;
  /** Each retry of its failures, oldest first (contract §15): the fan-out derives each round's message ids from them. */
  retries?: RetryRound[];
  /** The retry round the fan-out is working on, or last worked on. */
  retry_id?: string;
  /** Retry messages over every round: completion after a retry waits until the metrics have counted them all. */
  retried_total?: number;
  /** Contract §15: messages go to the platform only inside it. */
  send_window?: SendWindow | null;
  /** The zones the window is read in for this audience (the window's, and contacts' own): `paused_until` looks at them. */
  window_zones?: string[] | null;
  /** A large segment the fan-out resolves after the launch's other chunks, with the shared values its members get. */
  segment_pending?: { segment: Segment; shared: TemplateInput };
  /** Segment members resolved later whose values did not fit the template: left out, and counted here. */
  audience_unfit?: number;
  /** The pending segment's resolution failed on every try, and the campaign went on without its members. */
  segment_failed_at?: string;
  /** The first recipient's template values as given (macros unfilled): a test send fills them for a number outside the audience. */
  first_input?: TemplateInput;
}

export interface RetryRound {
  id: string;
  queued_at: string;
  /** The retry's answer (kept so the same request, repeated after a lost answer, gets it again). */
  retried?: number;
  skipped?: number;
}

/** The launch and each retry round after it, oldest first: each creates at most one message per recipient. */
export const campaignRounds = (c: Campaign): RetryRound[] => [{ id: c.launch_id!, queued_at: c.queued_at! }, ...(c.retries ?? [])];

/** A recipient's message of one round: the same round and recipient always give the same id, so a re-delivered job creates nothing new. */
export const roundMessageId = (c: Campaign, round: RetryRound, phone: string) => stableId(`${c.id}:${round.id}:${phone}`, Date.parse(round.queued_at));

export const ZERO_COUNTS: CampaignCounts = { total_messages: 0, pending: 0, sent: 0, delivered: 0, read: 0, failed: 0 };

/** The counter attribute a message status moves on the campaign. */
export const COUNTER_OF_STATUS: Record<string, keyof CampaignCounts> = { queued: 'pending', sent: 'sent', delivered: 'delivered', read: 'read', failed: 'failed' };

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

/** `failedByCode`: the failed messages by error code (contract §15), which only the results carry. */
export const resultsView = (c: Campaign, counts: CampaignCounts, pausedReason: PausedReason | null = null, failedByCode: Record<string, number> = {}, pausedUntil: string | null = null) => ({
  campaign_id: c.id,
  name: c.name,
  status: c.status,
  paused_reason: c.status === 'running' ? pausedReason : null,
  paused_until: pausedUntil,
  metrics: {
    ...counts,
    delivered_rate_pct: pct(counts.delivered + counts.read, counts.total_messages),
    read_rate_pct: pct(counts.read, counts.total_messages),
  },
  failed_by_code: failedByCode,
  started_at: c.started_at,
  completed_at: c.completed_at,
});
