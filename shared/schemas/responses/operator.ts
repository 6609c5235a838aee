/** What the operator's API answers (contract §19). */
import * as v from 'valibot';
import { ONBOARDING_MODES, ONBOARDING_STEPS } from '#shared/records/onboarding';
import { ERASURE_STEPS, PLANS } from '#shared/records/workspace';
import { recordId, timestamp } from '#shared/schemas/responses/common';
import { createdApiKey } from '#shared/schemas/responses/keys';
import { businessNumber } from '#shared/schemas/responses/numbers';

const onboardingStep = v.object({
  name: v.picklist(ONBOARDING_STEPS),
  status: v.picklist(['pending', 'succeeded', 'failed']),
  at: v.pipe(v.nullable(timestamp()), v.description('When it last succeeded or failed')),
  error: v.pipe(
    v.nullable(v.object({ code: v.string(), message: v.string(), platform_code: v.nullable(v.number()) })),
    v.description("Why it last failed: the service's error code and message, and the platform's code"),
  ),
});

const onboarding = v.object({
  phone_number_id: v.string(),
  waba_id: v.string(),
  mode: v.optional(v.picklist(ONBOARDING_MODES)),
  status: v.pipe(
    v.picklist(['in_progress', 'failed', 'completed']),
    v.description('`failed`: repeat the request to resume after the last step that succeeded'),
  ),
  steps: v.array(onboardingStep),
  started_at: timestamp(),
  updated_at: timestamp(),
});

export const operatorWorkspace = v.object({
  id: recordId(),
  name: v.string(),
  plan: v.picklist(PLANS),
  rate_limit: v.pipe(v.number(), v.description("Requests per second its keys may make: the operator's setting, or its plan's")),
  stop_words: v.pipe(v.array(v.string()), v.description('Its own stop words, or the default ones')),
  suspended: v.boolean(),
  status: v.pipe(v.picklist(['active', 'deleting']), v.description('`deleting` from its DELETE until the erasure ends (then 404)')),
  erasure: v.pipe(
    v.nullable(
      v.object({
        requested_at: timestamp(),
        step: v.pipe(
          v.picklist(ERASURE_STEPS),
          v.description('The step under way: two passes over the table (`table`, then `recheck` after a `grace`), then `media`, then `secret`'),
        ),
        items_deleted: v.pipe(v.number(), v.description('Table items deleted so far')),
        media_deleted: v.pipe(v.number(), v.description('Media objects deleted so far')),
      }),
    ),
    v.description('The erasure’s progress while `deleting`; null otherwise (not in the contract: the operator sees how far it is)'),
  ),
  numbers: v.array(businessNumber),
  onboarding: v.pipe(
    v.nullable(onboarding),
    v.description('Its Embedded Signup onboarding and the state of each step (null until one is started); never its token'),
  ),
  created_at: timestamp(),
});

/** A new workspace and its first key, whose secret is shown only here. */
export const openedWorkspace = v.object({ workspace: operatorWorkspace, key: createdApiKey });

export const numberThroughput = v.object({ id: v.pipe(v.string(), v.regex(/^\d+$/)), throughput_mps: v.number() });

const prices = () => v.record(v.string(), v.string());

/** GET|PUT /admin/v1/workspaces/{id}/rate-card: the card the workspace's messages are priced by. */
export const workspaceRateCard = v.object({
  source: v.pipe(
    v.picklist(['workspace', 'default']),
    v.description("`workspace`: the operator set the workspace's own card; `default`: it has none, and the deployment's default card applies"),
  ),
  currency: v.pipe(v.string(), v.examples(['USD'])),
  default: v.pipe(prices(), v.description('Prices by category (decimal strings) for a market the card does not list')),
  markets: v.pipe(v.record(v.string(), prices()), v.description('Prices by category by country calling code')),
  calls: v.optional(
    v.pipe(
      v.object({ default: v.optional(v.string()), markets: v.optional(v.record(v.string(), v.string())) }),
      v.description('Business-initiated calls: the price of a minute, charged per started 6-second pulse'),
    ),
  ),
});
