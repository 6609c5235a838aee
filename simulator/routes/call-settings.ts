import { checkCallingUpdate } from '#simulator/call-settings-check';
import { messagingLimitOf } from '#simulator/call-settings';
import { settingsUpdateWebhook } from '#simulator/call-webhooks';
import { callingErrors } from '#simulator/calling-errors';
import { graphErrors } from '#simulator/graph-error';
import { ok, type JsonResponse, type RouteContext } from '#simulator/http';
import { businessNumber, type SimulatorState } from '#simulator/state';

/** The minimum messaging limit for calling ("To enable calling, you must have a messaging limit of 2000 or above"). */
const MIN_MESSAGING_LIMIT = 2000;

const numericId = (ctx: RouteContext, method: string): string => {
  const id = ctx.params.phoneNumberId;
  if (!/^\d+$/.test(id)) throw graphErrors.unsupportedRequest(method, id);
  return id;
};

/**
 * `GET /{version}/{phone_number_id}/settings[?include_sip_credentials=true]` (Meta "Configure Call
 * Settings", "Get phone number calling settings"; docs/platform-calling.md §1): the `calling` object
 * beside the number's other settings (`storage_configuration`, as the MWRS example shows it).
 */
export const getSettings =
  (state: SimulatorState) =>
  (ctx: RouteContext): JsonResponse => {
    const id = numericId(ctx, 'GET');
    const withCredentials = ctx.url.searchParams.get('include_sip_credentials') === 'true';
    return ok({ calling: state.callSettings.view(id, withCredentials ? 'get_with_credentials' : 'get'), storage_configuration: { status: 'DEFAULT' } });
  };

/**
 * `POST /{version}/{phone_number_id}/settings` `{ calling: { status, call_icon_visibility,
 * call_hours, callback_permission_status, sip, audio, voicemail, … } }`: checks and stores the parts
 * given and answers `{ success: true }`. Enabling calling on a number whose messaging limit the
 * simulator knows to be under 2000 is 138015. When a watched field changed (`status`,
 * `call_icon_visibility`, `callback_permission_status`, `sip.status`, `srtp_key_exchange_protocol`),
 * the platform posts `account_settings_update` ("You'll be notified even for your own updates").
 */
export const updateSettings =
  (state: SimulatorState) =>
  async (ctx: RouteContext): Promise<JsonResponse> => {
    const id = numericId(ctx, 'POST');
    const body = await ctx.readJson();
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw callingErrors.invalidParameter('The request body must be a JSON object.');
    const update = checkCallingUpdate((body as Record<string, unknown>).calling);
    if (update.status === 'ENABLED') {
      const limit = messagingLimitOf(state.numbers.get(id)?.messaging_limit_tier);
      if (limit !== undefined && limit < MIN_MESSAGING_LIMIT) throw callingErrors.cannotBeEnabled();
    }
    if (state.callSettings.update(id, update)) {
      const payload = settingsUpdateWebhook(businessNumber(state, id), state.callSettings.view(id, 'webhook'));
      state.webhooks.later(state.faults.current.status_interval_ms, () => void state.webhooks.post(payload));
    }
    return ok({ success: true });
  };
