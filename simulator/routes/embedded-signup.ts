import { accessTokenOf } from '#simulator/auth';
import { GraphError, graphErrors } from '#simulator/graph-error';
import { ok, type JsonResponse, type RouteContext } from '#simulator/http';
import { randomDigits } from '#simulator/ids';
import { simulatedNumber } from '#simulator/numbers';
import type { SimulatorState } from '#simulator/state';
import { whatsappErrors } from '#simulator/whatsapp-errors';
import { CODE_TTL_MS } from '#simulator/embedded-signup';

/**
 * `POST /_simulate/embedded-signup` `{ phone_number_id?, waba_id?, code_ttl_ms? }`: a business
 * completes Embedded Signup; answers `{ code, phone_number_id, waba_id, pin }` as the signup hands
 * them to the operator's page (contract §19). Without ids, a new business account with one new
 * number; with them, a new code for that existing number (a business signing up again). The code
 * can be exchanged once, for 10 minutes (`code_ttl_ms` shortens it, for tests). With
 * `coexistence: true` (the `whatsapp_business_app_onboarding` feature type), the number is one of
 * the WhatsApp Business app, already registered (the registration step is skipped), (re)onboarded
 * now, and the answer names the session event `FINISH_WHATSAPP_BUSINESS_APP_ONBOARDING`
 * (docs/platform-coexistence.md §1).
 */
export const simulateEmbeddedSignup =
  (state: SimulatorState) =>
  async (ctx: RouteContext): Promise<JsonResponse> => {
    const body = ((await ctx.readJson()) ?? {}) as Record<string, unknown>;
    const given = typeof body.phone_number_id === 'string' ? state.numbers.get(body.phone_number_id) : undefined;
    if (body.phone_number_id !== undefined && !given) throw whatsappErrors.invalidParameter('phone_number_id must name a registered number');
    const ttl = body.code_ttl_ms ?? CODE_TTL_MS;
    if (typeof ttl !== 'number' || !Number.isInteger(ttl) || ttl < 0) throw whatsappErrors.invalidParameter('code_ttl_ms must be a non-negative integer');
    const phoneNumberId = given ? (body.phone_number_id as string) : randomDigits(15);
    const wabaId = given ? given.wabaId : randomDigits(15);
    const coexistence = body.coexistence === true;
    if (!given) state.numbers.set(phoneNumberId, simulatedNumber(phoneNumberId, wabaId, { verified_name: 'Signed-up Business', is_on_biz_app: coexistence }));
    const { code, pin } = state.signups.issue(wabaId, phoneNumberId, ttl);
    if (coexistence) {
      Object.assign(state.numbers.get(phoneNumberId) ?? {}, { is_on_biz_app: true });
      state.signups.register(phoneNumberId, pin);
      state.coexistence.onboard(phoneNumberId);
    }
    return ok({ code, phone_number_id: phoneNumberId, waba_id: wabaId, pin, ...(coexistence && { event: 'FINISH_WHATSAPP_BUSINESS_APP_ONBOARDING' }) });
  };

/** Graph's answer to a code it cannot exchange: OAuthException code 100, HTTP 400 (docs/platform-requests.md, "Onboarding"). */
const codeRefused = (message: string) => new GraphError(400, 100, 'OAuthException', message);

/**
 * `GET /oauth/access_token?client_id&client_secret&code`: the app exchanges a signup's code for a
 * business token, `{ access_token, token_type }`. The app authenticates with its secret, not a token.
 */
export const exchangeCode =
  (state: SimulatorState) =>
  (ctx: RouteContext): JsonResponse => {
    state.faults.failOnboardingStep('code_exchange');
    const query = ctx.url.searchParams;
    const code = query.get('code');
    if (!query.get('client_id') || !code) throw graphErrors.invalidParameter('Missing client_id or code parameter.');
    if (query.get('client_secret') !== state.appSecret) throw new GraphError(400, 1, 'OAuthException', 'Error validating client secret.');
    const exchanged = state.signups.exchange(code);
    if ('refused' in exchanged) {
      if (exchanged.refused === 'used') throw codeRefused('This authorization code has been used.');
      if (exchanged.refused === 'expired') throw codeRefused('This authorization code has expired.');
      throw codeRefused('Invalid verification code format.');
    }
    state.accessTokens.add(exchanged.token);
    return ok({ access_token: exchanged.token, token_type: 'bearer' });
  };

/** Business tokens act on their own business account's objects only; the app's system-user tokens on all (the simulator's simplification). */
const reaches = (state: SimulatorState, ctx: RouteContext, wabaId: string): boolean => {
  const account = state.signups.accountOf(accessTokenOf(ctx));
  return account === undefined || account === wabaId;
};

/**
 * `POST /{phone-number-id}/register` `{ messaging_product: "whatsapp", pin }`: the number is
 * registered for the Cloud API with its two-step verification PIN; `{ success: true }`. A wrong
 * PIN is 133005; a number of another business (the token cannot reach it) is Graph's 100/33.
 */
export const registerPhoneNumber =
  (state: SimulatorState) =>
  async (ctx: RouteContext): Promise<JsonResponse> => {
    state.faults.failOnboardingStep('register');
    const id = ctx.params.phoneNumberId;
    const number = state.numbers.get(id);
    if (!number || !reaches(state, ctx, number.wabaId)) throw graphErrors.unsupportedRequest('POST', id);
    const body = ((await ctx.readJson()) ?? {}) as Record<string, unknown>;
    if (body.messaging_product !== 'whatsapp') throw whatsappErrors.invalidParameter('messaging_product must be "whatsapp"');
    if (typeof body.pin !== 'string' || !/^\d{6}$/.test(body.pin)) throw whatsappErrors.invalidParameter('pin must be a 6-digit string');
    if (!state.signups.pinMatches(id, body.pin)) throw whatsappErrors.pinMismatch();
    state.signups.register(id, body.pin);
    return ok({ success: true });
  };

/** Whether a request's token may act on this business account (for the subscription and template routes). */
export const tokenReaches = reaches;
