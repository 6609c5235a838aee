import { graphErrors } from '#simulator/graph-error';
import { ok, type JsonResponse, type RouteContext } from '#simulator/http';
import { displayPhoneNumber, newWamid } from '#simulator/ids';
import { deliverInbound, digits } from '#simulator/routes/simulate-inbound';
import type { SimulatorState } from '#simulator/state';
import { unixSeconds, type InboundMessage } from '#simulator/webhook-payloads';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The `flow_token` of a flow message the simulator accepted from this number to this customer; the platform's default is "unused". */
function flowTokenOf(state: SimulatorState, phoneNumberId: string, from: string, wamid: string): string {
  const sent = state.sent.list(from).find((m) => m.wamid === wamid && m.phone_number_id === phoneNumberId);
  const interactive = (sent?.request as { interactive?: { type?: string; action?: { parameters?: { flow_token?: string } } } } | undefined)?.interactive;
  if (interactive?.type !== 'flow') throw graphErrors.invalidParameter('context must be the wamid of a flow message this number sent to from');
  return interactive.action?.parameters?.flow_token ?? 'unused';
}

/**
 * `POST /_simulate/flow-reply` `{ phone_number_id, from, context, response?, response_json?, body?, name? }`:
 * the customer completes the flow message `context` (its wamid), and the platform posts the
 * `nfm_reply` message (Meta, "Receiving Flow Response"): `nfm_reply: { name: "flow", body: "Sent",
 * response_json }`, where `response_json` is `{ flow_token, ...response }` as a string, or the
 * given `response_json` verbatim (to post what is not JSON). Answers `{ ok, wamid, delivered_status }`.
 */
export const simulateFlowReply =
  (state: SimulatorState) =>
  async (ctx: RouteContext): Promise<JsonResponse> => {
    const body = await ctx.readJson();
    if (!isObject(body)) throw graphErrors.invalidParameter('Body must be a JSON object { phone_number_id, from, context, response?, response_json?, body? }');
    const phoneNumberId = digits(body.phone_number_id, 'phone_number_id');
    const from = digits(body.from, 'from');
    if (typeof body.context !== 'string' || !body.context) throw graphErrors.invalidParameter('context must be the wamid of the flow message');
    if (body.response !== undefined && !isObject(body.response)) throw graphErrors.invalidParameter('response must be an object');
    if (body.response_json !== undefined && typeof body.response_json !== 'string') throw graphErrors.invalidParameter('response_json must be a string');
    const flowToken = flowTokenOf(state, phoneNumberId, from, body.context);
    const responseJson = body.response_json ?? JSON.stringify({ flow_token: flowToken, ...(body.response as object | undefined) });
    const message: InboundMessage = {
      context: { from: displayPhoneNumber(phoneNumberId), id: body.context },
      from,
      id: newWamid(from, 'inbound'),
      type: 'interactive',
      interactive: { type: 'nfm_reply', nfm_reply: { name: 'flow', body: typeof body.body === 'string' ? body.body : 'Sent', response_json: responseJson } },
      timestamp: unixSeconds(),
    };
    const name = typeof body.name === 'string' ? body.name : `Customer ${from.slice(-4)}`;
    const result = await deliverInbound(state, phoneNumberId, { name, waId: from }, message);
    return ok({ ok: true, wamid: message.id, delivered_status: result.status, ...(result.error && { error: result.error }) });
  };
