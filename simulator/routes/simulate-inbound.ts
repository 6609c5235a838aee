import { GraphError, graphErrors } from '#simulator/graph-error';
import { ok, type JsonResponse, type RouteContext } from '#simulator/http';
import { newWamid } from '#simulator/ids';
import type { SimulatorState } from '#simulator/state';
import { inboundTextWebhook, unixSeconds } from '#simulator/webhook-payloads';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A string or number of digits (a leading `+` is dropped), else Graph error 100 naming the field. */
function digits(value: unknown, field: string): string {
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text !== 'string' || !/^\+?\d{5,20}$/.test(text)) throw graphErrors.invalidParameter(`${field} must be a string of digits`);
  return text.replace(/^\+/, '');
}

/**
 * `POST /_simulate/inbound` `{ phone_number_id, from, text, name? }`: a customer's text message arrives.
 * POSTs the signed inbound webhook right away and answers once the receiver has answered:
 * `{ ok: true, wamid, delivered_status }` (`delivered_status` is that HTTP status, or `null` with `error`
 * when it could not be reached; failed deliveries are then retried in the background like any webhook).
 */
export const simulateInbound =
  (state: SimulatorState) =>
  async (ctx: RouteContext): Promise<JsonResponse> => {
    const body = await ctx.readJson();
    if (!isObject(body)) throw graphErrors.invalidParameter('Body must be a JSON object { phone_number_id, from, text, name? }');
    const phoneNumberId = digits(body.phone_number_id, 'phone_number_id');
    const from = digits(body.from, 'from');
    if (typeof body.text !== 'string' || body.text === '') throw graphErrors.invalidParameter('text must be a non-empty string');
    if (body.name !== undefined && typeof body.name !== 'string') throw graphErrors.invalidParameter('name must be a string');
    if (!state.webhooks.hasUrl) {
      throw new GraphError(409, 100, 'SimulatorException', 'No webhook URL configured (SimulatorOptions.webhookUrl or setWebhookUrl)');
    }

    const wamid = newWamid(from, 'inbound');
    const name = body.name || `Customer ${from.slice(-4)}`;
    const payload = inboundTextWebhook(phoneNumberId, { from, name, wamid, text: body.text, timestamp: unixSeconds() });
    const result = await state.webhooks.post(payload);
    return ok({ ok: true, wamid, delivered_status: result.status, ...(result.error && { error: result.error }) });
  };
