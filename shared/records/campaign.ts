/** A campaign as the service keeps it (contract §8, §15), with its send window, segment and the recipients of its audience chunks. */
import type { CustomFieldValue } from '#shared/records/contact';
import type { Template } from '#shared/records/template';
// The stored shapes of template parameters are still defined beside their rules; a type-only import (erased from bundles).
import type { TemplateInput, TemplateParameters } from '#shared/records/template-parameters';

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
  /** The number it sends from (contract §17); absent on a campaign from before several numbers: the workspace's first number. */
  business_number_id?: string;
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
  /** What the launch's audience was estimated to cost (contract §20), when it was resolved at launch: results show it as `cost.estimated`. */
  estimated_cost?: { currency: string; total: string };
  /** Contract §20: its sends stop before their estimates would take it over this (a decimal string, the card's currency). */
  max_cost?: string | null;
  /** Set when its budget was reached: its messages wait `queued` until a resume raises `max_cost` (contract §20). */
  paused_reason?: { code: 'budget_reached'; title: string; since: string } | null;
}

export interface RetryRound {
  id: string;
  queued_at: string;
  /** The retry's answer (kept so the same request, repeated after a lost answer, gets it again). */
  retried?: number;
  skipped?: number;
}

export const ZERO_COUNTS: CampaignCounts = { total_messages: 0, pending: 0, sent: 0, delivered: 0, read: 0, failed: 0 };

/** The days a window names, in the order `Date#getUTCDay` numbers them. */
export const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/**
 * When a campaign may hand messages to the platform (contract §15): from `start` to `end` local
 * time on each of `days`, in `time_zone` or the contact's own. An `end` before `start` runs past
 * midnight into the next day, and belongs to the day it starts on.
 */
export interface SendWindow {
  start: string;
  end: string;
  days: Weekday[];
  time_zone: string;
}

/** A launch's `segment` (contract §15): contacts chosen by tags and custom fields, and the tags that exclude numbers. */
export interface Segment {
  tags_any?: string[];
  tags_all?: string[];
  exclude_tags?: string[];
  custom_fields?: Record<string, CustomFieldValue>;
}

/** One recipient as the fan-out needs it (an audience chunk holds these): phone, name and the template parameters as accepted (macros filled). */
export interface Recipient {
  /** The number's digits, or for a contact known only by user id that id (contract §21; a period tells them apart). */
  p: string;
  n: string | null;
  t: TemplateParameters;
  /** The contact's own time zone, when the launch has a send window and the contact a known `custom_fields.time_zone`. */
  z?: string;
}
