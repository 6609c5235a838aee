import { graphErrors } from '#simulator/graph-error';
import { ok, type JsonResponse, type RouteContext } from '#simulator/http';
import { phoneNumberObject } from '#simulator/numbers';
import { paginate } from '#simulator/paging';
import type { SimulatorState } from '#simulator/state';
import { whatsappErrors } from '#simulator/whatsapp-errors';
import { tokenReaches } from '#simulator/routes/embedded-signup';

/** The app id the simulator subscribes; the platform names the app in `whatsapp_business_api_data`. */
const APP = { id: '700000000000001', name: 'Simulated app', link: 'https://www.facebook.com/games/?app_id=700000000000001' };

/** `GET /{phone-number-id}?fields=…`: a registered number (`POST /_simulate/numbers`), else the platform's error 100/33. */
export const getPhoneNumber =
  (state: SimulatorState) =>
  (ctx: RouteContext): JsonResponse => {
    state.faults.failOnboardingStep('phone_number');
    const id = ctx.params.objectId;
    const number = state.numbers.get(id);
    if (!number || !tokenReaches(state, ctx, number.wabaId)) throw graphErrors.unsupportedRequest('GET', id);
    return ok(phoneNumberObject(id, number, ctx.url.searchParams.get('fields')));
  };

const knownAccount = (state: SimulatorState, wabaId: string) => [...state.numbers.values()].some((n) => n.wabaId === wabaId);

/** Numbers per page: the platform's default is 25; a client must follow `paging.next` past it. */
const NUMBER_PAGE_SIZES = { defaultLimit: 25, maxLimit: 100 };

/**
 * `GET /{waba-id}/phone_numbers`: the account's numbers with their default fields (or `fields`),
 * cursor-paged (Graph API reference, "WhatsApp Business Account Phone Numbers"; docs/numbers.md).
 * An account the token cannot reach is Graph's 100/33, as for any object it cannot see.
 */
export const listAccountNumbers =
  (state: SimulatorState) =>
  (ctx: RouteContext): JsonResponse => {
    state.faults.failOnboardingStep('phone_numbers');
    const { wabaId } = ctx.params;
    if (!knownAccount(state, wabaId) || !tokenReaches(state, ctx, wabaId)) throw graphErrors.unsupportedRequest('GET', wabaId);
    const fields = ctx.url.searchParams.get('fields');
    const numbers = [...state.numbers.entries()].filter(([, n]) => n.wabaId === wabaId).map(([id, n]) => ({ ...phoneNumberObject(id, n, fields), id }));
    return ok(paginate(numbers, ctx.url, NUMBER_PAGE_SIZES));
  };

/** `POST /{waba-id}/subscribed_apps`: the app gets that business account's webhooks; `{ success: true }`. */
export const subscribeApp =
  (state: SimulatorState) =>
  (ctx: RouteContext): JsonResponse => {
    state.faults.failOnboardingStep('subscribed_apps');
    const { wabaId } = ctx.params;
    if (!knownAccount(state, wabaId) || !tokenReaches(state, ctx, wabaId)) throw graphErrors.unsupportedRequest('POST', wabaId);
    state.subscribedAccounts.add(wabaId);
    state.subscriptionRequests.set(wabaId, (state.subscriptionRequests.get(wabaId) ?? 0) + 1);
    return ok({ success: true });
  };

/** `GET /{waba-id}/subscribed_apps`: the apps subscribed to the business account. */
export const listSubscribedApps =
  (state: SimulatorState) =>
  (ctx: RouteContext): JsonResponse => {
    const { wabaId } = ctx.params;
    if (!knownAccount(state, wabaId)) throw graphErrors.unsupportedRequest('GET', wabaId);
    return ok({ data: state.subscribedAccounts.has(wabaId) ? [{ whatsapp_business_api_data: APP }] : [] });
  };

const QUALITY_EVENTS = ['FLAGGED', 'UNFLAGGED', 'DOWNGRADE', 'UPGRADE', 'ONBOARDING', 'THROUGHPUT_UPGRADE'];

/**
 * `POST /_simulate/number-quality` `{ phone_number_id, event, quality_rating?, messaging_limit_tier? }`:
 * the platform re-rates a number (its object answers the new values from now on) and pushes
 * `phone_number_quality_update` to the business account's webhooks, naming the number by its
 * display number (Meta, "phone_number_quality_update webhook reference"; docs/numbers.md).
 */
export const simulateNumberQuality =
  (state: SimulatorState) =>
  async (ctx: RouteContext): Promise<JsonResponse> => {
    const body = ((await ctx.readJson()) ?? {}) as Record<string, unknown>;
    const id = body.phone_number_id;
    const number = typeof id === 'string' ? state.numbers.get(id) : undefined;
    if (!number) throw whatsappErrors.invalidParameter('phone_number_id must name a registered number');
    if (typeof body.event !== 'string' || !QUALITY_EVENTS.includes(body.event))
      throw whatsappErrors.invalidParameter(`event must be one of ${QUALITY_EVENTS.join(', ')}`);
    const oldLimit = number.messaging_limit_tier;
    if (typeof body.quality_rating === 'string') number.quality_rating = body.quality_rating as typeof number.quality_rating;
    if (typeof body.messaging_limit_tier === 'string') number.messaging_limit_tier = body.messaging_limit_tier;
    const limitChanged = oldLimit !== number.messaging_limit_tier;
    const payload = {
      object: 'whatsapp_business_account',
      entry: [
        {
          id: number.wabaId,
          time: Math.floor(Date.now() / 1000),
          changes: [
            {
              field: 'phone_number_quality_update',
              value: {
                display_phone_number: number.display_phone_number.replace(/\D/g, ''),
                event: body.event,
                ...(limitChanged && { old_limit: oldLimit }),
                current_limit: number.messaging_limit_tier,
                max_daily_conversations_per_business: number.messaging_limit_tier,
              },
            },
          ],
        },
      ],
    };
    const result = await state.webhooks.post(payload);
    return ok({ ok: true, delivered_status: result.status, ...(result.error && { error: result.error }) });
  };

/** `GET /_simulate/subscriptions`: how many subscription requests each business account accepted (a test's check that nothing subscribed twice). */
export const listSubscriptionRequests = (state: SimulatorState) => (): JsonResponse =>
  ok({ data: [...state.subscriptionRequests].map(([waba_id, requests]) => ({ waba_id, requests })) });
