/** What the operator's API answers (contract §19). */
import * as v from 'valibot';
import { PLANS } from '#shared/records/workspace';
import { recordId, timestamp } from '#shared/schemas/responses/common';
import { createdApiKey } from '#shared/schemas/responses/keys';
import { businessNumber } from '#shared/schemas/responses/numbers';

export const operatorWorkspace = v.object({
  id: recordId(),
  name: v.string(),
  plan: v.picklist(PLANS),
  rate_limit: v.pipe(v.number(), v.description("Requests per second its keys may make: the operator's setting, or its plan's")),
  stop_words: v.pipe(v.array(v.string()), v.description('Its own stop words, or the default ones')),
  suspended: v.boolean(),
  status: v.pipe(v.picklist(['active', 'deleting']), v.description('`deleting` while an erasure runs (not built yet: always `active`)')),
  numbers: v.array(businessNumber),
  onboarding: v.pipe(v.null(), v.description('The steps of its Embedded Signup onboarding (not built yet: always null)')),
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
});
