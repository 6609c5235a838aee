import { ok, type JsonResponse, type RouteContext } from '#simulator/http';
import type { SimulatorState } from '#simulator/state';
import { whatsappErrors } from '#simulator/whatsapp-errors';

/** `POST /_simulate/numbers` `{ phone_number_id, waba_id }`: the business account a number belongs to, named in its webhooks' `entry[].id`. */
export const registerNumber =
  (state: SimulatorState) =>
  async (ctx: RouteContext): Promise<JsonResponse> => {
    const body = (await ctx.readJson()) as Record<string, unknown> | undefined;
    const phoneNumberId = body?.phone_number_id;
    const wabaId = body?.waba_id;
    if (typeof phoneNumberId !== 'string' || !/^\d+$/.test(phoneNumberId) || typeof wabaId !== 'string' || !/^\d+$/.test(wabaId)) {
      throw whatsappErrors.invalidParameter('phone_number_id and waba_id must be strings of digits');
    }
    state.numbers.set(phoneNumberId, wabaId);
    return ok({ phone_number_id: phoneNumberId, waba_id: wabaId });
  };
