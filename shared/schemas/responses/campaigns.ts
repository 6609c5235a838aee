/** What the campaign operations answer (contract §8, §16). */
import * as v from 'valibot';
import { CAMPAIGN_STATUSES, WEEKDAYS } from '#shared/records/campaign';
import { count, percentage, recordId, timestamp } from '#shared/schemas/responses/common';

const campaignEntries = () => ({
  id: recordId(),
  name: v.string(),
  template_id: v.pipe(v.string(), v.description("The platform's template id")),
  template_name: v.string(),
  language: v.string(),
  status: v.picklist(CAMPAIGN_STATUSES),
  scheduled_at: v.nullable(timestamp()),
  send_window: v.pipe(
    v.nullable(v.object({ start: v.string(), end: v.string(), days: v.array(v.picklist(WEEKDAYS)), time_zone: v.string() })),
    v.description(
      "When messages may go to the platform (contract §15): `start` to `end` local time on `days`, in `time_zone` or a contact's own `custom_fields.time_zone`",
    ),
  ),
  total_recipients: v.pipe(v.nullable(count()), v.description('Set at launch')),
  created_at: timestamp(),
  queued_at: v.nullable(timestamp()),
  started_at: v.nullable(timestamp()),
  completed_at: v.nullable(timestamp()),
  cancelled_at: v.nullable(timestamp()),
});

/** Each message counted once, by its current status; the parts add up to `total_messages`. */
const metrics = () =>
  v.object({
    total_messages: count(),
    pending: count(),
    sent: count(),
    delivered: count(),
    read: count(),
    failed: count(),
    delivered_rate_pct: percentage(),
    read_rate_pct: percentage(),
  });

export const campaign = v.object(campaignEntries());

export const campaignWithMetrics = v.object({ ...campaignEntries(), metrics: metrics() });

export const campaignResults = v.object({
  campaign_id: recordId(),
  name: v.string(),
  status: v.picklist(CAMPAIGN_STATUSES),
  paused_reason: v.pipe(
    v.nullable(v.object({ code: v.union([v.string(), v.number()]), title: v.string(), since: timestamp() })),
    v.description("While running: the account-level platform error that paused the number's sending"),
  ),
  paused_until: v.pipe(
    v.nullable(timestamp()),
    v.description('While running with its send window closed in every zone of its audience: when the window next opens, and sending resumes by itself'),
  ),
  metrics: metrics(),
  failed_by_code: v.pipe(
    v.record(v.string(), count()),
    v.description("The failed messages by error code (the platform's, or ours such as `recipient_opted_out`)"),
  ),
  started_at: v.nullable(timestamp()),
  completed_at: v.nullable(timestamp()),
});

export const campaignLaunch = v.object({
  campaign_id: recordId(),
  name: v.string(),
  status: v.picklist(['running', 'scheduled']),
  queued_at: timestamp(),
  total_recipients: count(),
  excluded_opted_out: v.pipe(
    count(),
    v.description(
      'Of `total_recipients`, the numbers that opted out, for a MARKETING template: their messages are created `failed` with `recipient_opted_out` and never sent',
    ),
  ),
  excluded_market_not_allowed: v.pipe(
    count(),
    v.description(
      'Of `total_recipients`, the numbers (not opted out) in a market the platform closes to marketing, for a MARKETING template: their messages are created `failed` with `market_not_allowed` and never sent',
    ),
  ),
  audience_complete: v.pipe(
    v.boolean(),
    v.description(
      "False when a large `segment` (over 5,000 contacts to read) is resolved in the background: both counts then leave its members out, and the campaign's `total_recipients` grows by them once resolved",
    ),
  ),
});

/** The test messages, one per distinct number. */
export const campaignTestSend = v.object({
  messages: v.array(v.object({ message_id: recordId(), recipient: v.pipe(v.string(), v.description('The number, digits with the country code')) })),
});

export const campaignRetry = v.object({
  campaign_id: recordId(),
  status: v.picklist(['running']),
  retried_count: v.pipe(count(), v.description('Recipients that get a new message')),
  skipped_count: v.pipe(count(), v.description('Failed recipients not retried: their cause will not pass by itself')),
});
