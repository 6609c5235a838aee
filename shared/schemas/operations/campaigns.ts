import { createCampaignBody, launchCampaignBody, listCampaignsQuery, resumeCampaignBody, testCampaignBody } from '#shared/schemas/campaigns';
import { idParams } from '#shared/schemas/common';
import type { ApiKeyOperation } from '#shared/schemas/operations/description';

export const CreateCampaign = {
  tag: 'Campaigns',
  summary: 'Create a draft campaign',
  description:
    "Tied to an approved template, by `template_id` or `template_name` (and `language`, default en_US). `scheduled_at` needs the growth or pro plan. `send_window` keeps its messages inside `start`–`end` local time on `days`, in `time_zone` or a contact's own `custom_fields.time_zone` (an `end` before `start` runs past midnight).",
  auth: 'apiKey',
  request: { body: createCampaignBody },
  bodyExample: { name: 'Order updates', template_name: 'order_update', language: 'en_US' },
  success: [{ status: 201, data: 'campaign' }],
  errors: ['template_not_found', 'template_not_approved', 'plan_upgrade_required', 'unknown_number'],
} satisfies ApiKeyOperation;

export const ListCampaigns = {
  tag: 'Campaigns',
  summary: 'List campaigns, newest first',
  auth: 'apiKey',
  request: { query: listCampaignsQuery },
  success: [{ status: 200, data: 'campaign', list: 'pages' }],
} satisfies ApiKeyOperation;

export const GetCampaign = {
  tag: 'Campaigns',
  summary: 'Get a campaign with its metrics',
  auth: 'apiKey',
  request: { params: idParams },
  success: [{ status: 200, data: 'campaignWithMetrics' }],
  errors: ['not_found'],
} satisfies ApiKeyOperation;

export const GetCampaignResults = {
  tag: 'Campaigns',
  summary: "A campaign's live delivery metrics",
  description:
    "Each recipient counted once by its latest message's status (about 2 s behind the messages); `failed_by_code` breaks `failed` down by error code. While the send window is closed in every zone of the audience, `paused_until` tells when it next opens.",
  auth: 'apiKey',
  request: { params: idParams },
  success: [{ status: 200, data: 'campaignResults' }],
  errors: ['not_found'],
} satisfies ApiKeyOperation;

export const LaunchCampaign = {
  tag: 'Campaigns',
  summary: 'Launch a draft campaign to its audience',
  description:
    "Recipients come from `recipients`, then `contact_ids`, then the members of `group_ids`, then the contacts `segment` selects (tags case-insensitive: any of `tags_any`, all of `tags_all`; `custom_fields` equal on every key; the criteria given all apply), de-duplicated by phone (the first wins). `segment.exclude_tags` removes, from every source, each number whose contact carries one of those tags. For a MARKETING template, opted-out numbers get a `failed` `recipient_opted_out` message, counted in `excluded_opted_out`. A segment that reads over 5,000 contacts is resolved in the background: the answer has `audience_complete: false` and counts the other sources only. `send_window` replaces the campaign's. The campaign runs at once, or is `scheduled` when its `scheduled_at` is in the future.",
  auth: 'apiKey',
  request: { params: idParams, body: launchCampaignBody, idempotentAs: 'POST /api/v1/campaigns/{id}/launch' },
  bodyExample: {
    recipients: [{ phone: '+1 415 555 0112', name: 'Grace', variables: ['Grace', 'A-18'] }],
    group_ids: ['0193a3c4-5e6f-7a8b-9c0d-1e2f3a4b5c6d'],
    template_variables: ['{{name}}', 'your order'],
  },
  success: [{ status: 202, data: 'campaignLaunch' }],
  errors: [
    'not_found',
    'invalid_state',
    'template_not_found',
    'template_not_approved',
    'template_variables_mismatch',
    'invalid_audience',
    'empty_audience',
    'unknown_number',
  ],
} satisfies ApiKeyOperation;

export const EstimateCampaign = {
  tag: 'Campaigns',
  summary: 'Estimate what launching a campaign would cost',
  description:
    "Takes the launch body and resolves the audience as the launch would (sources, de-duplication, `exclude_tags`, a `segment` of any size), sending and storing nothing. Numbers that opted out of a MARKETING template are left out (`excluded_opted_out`); every other recipient is priced by the workspace's rate card at the template's category, by the recipient's country. The list price: messages the platform will not charge (a free entry point window) cannot be known before sending.",
  auth: 'apiKey',
  request: { params: idParams, body: launchCampaignBody },
  success: [{ status: 200, data: 'campaignEstimate' }],
  errors: ['not_found', 'template_not_found', 'template_not_approved', 'template_variables_mismatch', 'invalid_audience', 'empty_audience', 'unknown_number'],
} satisfies ApiKeyOperation;

export const CancelCampaign = {
  tag: 'Campaigns',
  summary: 'Cancel a campaign',
  description: 'From draft, scheduled or running: its unsent messages fail with `campaign_cancelled`.',
  auth: 'apiKey',
  request: { params: idParams },
  success: [{ status: 200, data: 'campaign' }],
  errors: ['not_found', 'invalid_state'],
} satisfies ApiKeyOperation;

export const ResumeCampaign = {
  tag: 'Campaigns',
  summary: 'Resume a campaign paused by its budget, with a higher one',
  description:
    'Only while it is running and paused with `budget_reached` (else 409 `invalid_state`). `max_cost` replaces its budget and must be above what its sends cost so far, billed or estimated in flight (else 422 `validation_error`); its waiting messages go at their next look (within a minute).',
  auth: 'apiKey',
  request: { params: idParams, body: resumeCampaignBody },
  success: [{ status: 200, data: 'campaign' }],
  errors: ['not_found', 'invalid_state'],
  unprocessable: ['validation_error'],
} satisfies ApiKeyOperation;

export const TestCampaign = {
  tag: 'Campaigns',
  summary: "Send the campaign's message to 1–5 test numbers",
  description:
    "In any state but cancelled. Each number gets the campaign's template rendered as the campaign renders it: with its own parameters when it is in the launched audience, else the first recipient's (a draft has none, so only a template without parameters can be tested before launch). The messages carry `test_of_campaign` and are never counted in the campaign's metrics or completion.",
  auth: 'apiKey',
  request: { params: idParams, body: testCampaignBody },
  success: [{ status: 202, data: 'campaignTestSend' }],
  errors: ['not_found', 'invalid_state', 'template_not_found', 'template_not_approved', 'template_variables_mismatch', 'unknown_number'],
} satisfies ApiKeyOperation;

export const RetryCampaign = {
  tag: 'Campaigns',
  summary: 'Retry the recipients whose latest message failed with a transient cause',
  description:
    'Only a completed campaign. For each recipient whose latest message failed with `send_failed`, 130429, 131000, 131016, 131049, 131056, 131057, 2, 1, 4 or 80007, a new message (`retry_of`: the failed one) is created in the background and the campaign runs again until they are final. Metrics count each recipient by its latest message, so `total_messages` stays the number of recipients. `skipped_count`: the failed recipients not retried (a cause that will not pass). With the same Idempotency-Key, a repeated request answers the same and creates nothing more.',
  auth: 'apiKey',
  request: { params: idParams, idempotentAs: 'POST /api/v1/campaigns/{id}/retry' },
  success: [{ status: 202, data: 'campaignRetry' }],
  errors: ['not_found', 'invalid_state', 'nothing_to_retry'],
} satisfies ApiKeyOperation;
