import { ok, type JsonResponse, type RouteContext } from '#simulator/http';
import type { SimulatorState } from '#simulator/state';
import { whatsappErrors } from '#simulator/whatsapp-errors';
import { simulatedNumber, type SimulatedNumber } from '#simulator/numbers';

/**
 * `POST /_simulate/numbers` `{ phone_number_id, waba_id, display_phone_number?, verified_name?, quality_rating?, messaging_limit_tier?, coexistence? }`:
 * a number the platform knows, in that business account (named in its webhooks' `entry[].id`). With
 * `coexistence: true` it is on the WhatsApp Business app too (`is_on_biz_app`), onboarded now
 * (simulator/coexistence.ts: 20 mps, echoes, history and its syncs).
 */
export const registerNumber =
  (state: SimulatorState) =>
  async (ctx: RouteContext): Promise<JsonResponse> => {
    const body = (await ctx.readJson()) as Record<string, unknown> | undefined;
    const phoneNumberId = body?.phone_number_id;
    const wabaId = body?.waba_id;
    if (typeof phoneNumberId !== 'string' || !/^\d+$/.test(phoneNumberId) || typeof wabaId !== 'string' || !/^\d+$/.test(wabaId)) {
      throw whatsappErrors.invalidParameter('phone_number_id and waba_id must be strings of digits');
    }
    const text = (field: string) => (typeof body?.[field] === 'string' ? body[field] : undefined);
    state.numbers.set(
      phoneNumberId,
      simulatedNumber(phoneNumberId, wabaId, {
        display_phone_number: text('display_phone_number'),
        verified_name: text('verified_name'),
        quality_rating: text('quality_rating') as SimulatedNumber['quality_rating'] | undefined,
        messaging_limit_tier: text('messaging_limit_tier'),
        is_on_biz_app: body?.coexistence === true,
      }),
    );
    if (body?.coexistence === true) state.coexistence.onboard(phoneNumberId);
    return ok({ phone_number_id: phoneNumberId, waba_id: wabaId });
  };
