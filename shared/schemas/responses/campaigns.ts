/** What the campaign operations answer (contract §8, §16). */
import * as v from 'valibot';
import { CAMPAIGN_STATUSES, WEEKDAYS } from '#shared/records/campaign';
import { amount, count, percentage, recordId, timestamp } from '#shared/schemas/responses/common';

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
  max_cost: v.pipe(v.nullable(amount()), v.description("Its budget in the currency of the workspace's rate card (contract §20); null: none")),
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
    v.description(
      "While running: why sending waits. `budget_reached`: the next message would take the campaign over its `max_cost` (resume it with a higher one); else the account-level platform error that paused the number's sending",
    ),
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
  cost: v.pipe(
    v.object({
      currency: v.pipe(v.string(), v.examples(['USD'])),
      estimated: v.pipe(
        v.nullable(amount()),
        v.description(
          'The estimate made at launch (as POST /estimate answers); null when the audience was not all known then (a segment resolved in the background)',
        ),
      ),
      billed: v.pipe(amount(), v.description('What the platform charged for its delivered messages so far, by the rate card: the sum of their `cost`')),
    }),
    v.description("What the campaign costs, in the currency of the workspace's rate card"),
  ),
  started_at: v.nullable(timestamp()),
  completed_at: v.nullable(timestamp()),
});

const limitWarning = v.pipe(
  v.nullable(
    v.object({
      limit: v.pipe(count(), v.description("The sending number's business portfolio messaging limit: unique customers per rolling 24 hours")),
      used_24h: v.pipe(
        count(),
        v.description(
          "Template messages the workspace's numbers handed to the platform in the current clock hour and the 23 before it (an upper bound on the unique customers the platform counts)",
        ),
      ),
      audience: v.pipe(count(), v.description('Recipients this launch will send to (less opted-out and closed-market ones), each counted as new')),
    }),
  ),
  v.description(
    'Set when `audience` exceeds what is left of the limit (`limit - used_24h`): the campaign is sent all the same, and the platform decides what it delivers; null otherwise, or when the limit is unlimited or not known',
  ),
);

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
  limit_warning: limitWarning,
});

/** What a launch would cost (contract §20). */
export const campaignEstimate = v.object({
  currency: v.pipe(v.string(), v.examples(['USD'])),
  total: amount(),
  recipients: v.pipe(count(), v.description('The recipients priced: the audience less the numbers that opted out')),
  by_country: v.array(
    v.object({
      country: v.pipe(v.string(), v.description("The recipients' ISO 3166 country, or `unknown`")),
      recipients: count(),
      rate: v.pipe(v.nullable(amount()), v.description('The price of one message; null when the card has none for the category')),
      amount: v.nullable(amount()),
    }),
  ),
  excluded_opted_out: v.pipe(count(), v.description('Numbers that opted out of a MARKETING template: never sent, not priced')),
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
