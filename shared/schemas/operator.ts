/** Requests of the operator's API, /admin/v1 (contract §19). */
import { ONBOARDING_MODES } from '#shared/records/onboarding';
import * as v from 'valibot';
import { MAX_THROUGHPUT } from '#shared/records/business-number';
import { PRICE_CATEGORIES } from '#shared/records/pricing';
import { PLANS } from '#shared/records/workspace';
import { droppable, keyBody, platformId, text, uuid } from '#shared/schemas/common';

const numberFields = () => ({ phone_number_id: platformId('phone number id'), waba_id: platformId('WhatsApp Business Account id') });
const plan = () => v.picklist(PLANS, `Must be one of ${PLANS.join(', ')}`);

/**
 * POST /admin/v1/workspaces: `name, plan` (contract §19); its first number optionally (both ids or
 * neither): without one, onboarding (or connecting a number) gives it its first (docs/operator.md).
 */
export const createWorkspaceBody = /* @__PURE__ */ droppable(() =>
  v.pipe(
    v.object({
      name: text(100),
      plan: plan(),
      phone_number_id: v.optional(platformId('phone number id')),
      waba_id: v.optional(platformId('WhatsApp Business Account id')),
    }),
    v.forward(
      v.partialCheck(
        [['phone_number_id'], ['waba_id']],
        (input) => (input.phone_number_id === undefined) === (input.waba_id === undefined),
        'phone_number_id and waba_id go together: both or neither',
      ),
      ['waba_id'],
    ),
  ),
);

/** PATCH /admin/v1/workspaces/{id}: only the fields sent change. */
export const updateWorkspaceBody = /* @__PURE__ */ droppable(() =>
  v.object({
    plan: v.optional(plan()),
    rate_limit: v.optional(
      v.pipe(
        v.number(),
        v.description("Requests per second the workspace's keys may make, instead of its plan's"),
        v.integer('Must be a whole number'),
        v.minValue(1, 'Must be at least 1'),
        v.maxValue(100_000, 'Must be at most 100000'),
      ),
    ),
    stop_words: v.optional(
      v.pipe(
        v.array(text(100)),
        v.description('Inbound texts that opt a customer out of marketing (contract §13), replacing the current list'),
        v.maxLength(100, 'Must have at most 100 words'),
      ),
    ),
    suspended: v.optional(v.pipe(v.boolean(), v.description('Suspended: its keys are refused (403 `workspace_suspended`) and its queued sends wait'))),
  }),
);

/** /admin/v1/workspaces/{id} and below */
export const workspaceParams = /* @__PURE__ */ droppable(() => v.object({ id: uuid() }));

/** POST /admin/v1/workspaces/{id}/keys */
export const operatorKeyBody = /* @__PURE__ */ droppable(() => keyBody());

/** POST /admin/v1/workspaces/{id}/numbers */
export const operatorNumberBody = /* @__PURE__ */ droppable(() => v.object(numberFields()));

/** POST /admin/v1/workspaces/{id}/onboarding: what the platform's Embedded Signup handed the operator's page (contract §19). */
export const onboardingBody = /* @__PURE__ */ droppable(() =>
  v.object({
    code: v.pipe(
      v.string(),
      v.description('The code Embedded Signup returned; exchanged once for the business token, valid 10 minutes'),
      v.minLength(1, 'Must not be empty'),
      v.maxLength(2048, 'Must be at most 2048 characters'),
    ),
    ...numberFields(),
    pin: v.optional(
      v.pipe(
        v.string(),
        v.description("The number's two-step verification PIN (6 digits); absent: the service sets a random one and keeps it in the workspace's secret"),
        v.regex(/^\d{6}$/, 'Must be 6 digits'),
      ),
    ),
    mode: v.optional(
      v.pipe(
        v.picklist(ONBOARDING_MODES, 'Must be cloud_api or coexistence'),
        v.description(
          "`coexistence`: the business keeps using the number in the WhatsApp Business app (Embedded Signup's `whatsapp_business_app_onboarding`); the number is not registered again, and its contacts and history are asked for. Default `cloud_api`",
        ),
      ),
    ),
  }),
);

/** PATCH /admin/v1/numbers/{id} */
export const numberThroughputParams = /* @__PURE__ */ droppable(() => v.object({ id: platformId('phone number id') }));
export const numberThroughputBody = /* @__PURE__ */ droppable(() =>
  v.object({
    throughput_mps: v.pipe(
      v.number(),
      v.description('Messages per second the platform granted the number (its default: 80)'),
      v.integer('Must be a whole number'),
      v.minValue(1, 'Must be at least 1'),
      v.maxValue(MAX_THROUGHPUT, `Must be at most ${MAX_THROUGHPUT}`),
    ),
  }),
);

/** A price of a rate card: a decimal string of at most 4 decimals (shared/domain/pricing/money.ts). */
const price = () =>
  v.pipe(
    v.string('A price is a decimal string'),
    v.regex(/^\d{1,9}(?:\.\d{1,4})?$/, 'A price is a decimal string with at most 4 decimals, such as "0.0250"'),
    v.examples(['0.0250']),
  );
const prices = (what: string) =>
  v.pipe(
    v.strictObject(
      Object.fromEntries(PRICE_CATEGORIES.map((category) => [category, v.optional(price())])) as Record<
        (typeof PRICE_CATEGORIES)[number],
        v.OptionalSchema<ReturnType<typeof price>, undefined>
      >,
    ),
    v.description(what),
  );

/** PUT /admin/v1/workspaces/{id}/rate-card: a card of contract §20, replacing the workspace's own whole. */
export const rateCardBody = /* @__PURE__ */ droppable(() =>
  v.strictObject({
    currency: v.pipe(v.string(), v.regex(/^[A-Z]{3}$/, 'An ISO 4217 code such as "USD"'), v.examples(['USD'])),
    default: prices('Prices by category for a market not listed in `markets`, or a category its market does not list'),
    markets: v.pipe(
      v.record(v.pipe(v.string(), v.regex(/^[1-9]\d{0,3}$/, 'A market is a country calling code, such as "55"')), prices('Prices by category in this market')),
      v.description('Prices by country calling code (`"55"`); the regional "rest of" groups listed by their countries\' codes'),
    ),
    calls: v.optional(
      v.pipe(
        v.strictObject({
          default: v.optional(price()),
          markets: v.optional(v.record(v.pipe(v.string(), v.regex(/^[1-9]\d{0,3}$/, 'A market is a country calling code, such as "55"')), price())),
        }),
        v.description(
          'Business-initiated calls: the price of a minute by country calling code, else `default`; charged per started 6-second pulse (contract §23)',
        ),
      ),
    ),
  }),
);
