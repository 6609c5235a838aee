import { connectCall, endCall, postLater, ring } from '#simulator/call-flow';
import { callingErrors } from '#simulator/calling-errors';
import type { SimulatedCall } from '#simulator/calls';
import { graphErrors } from '#simulator/graph-error';
import { ok, type JsonResponse, type RouteContext } from '#simulator/http';
import { platformWaId } from '#simulator/ids';
import { MAX_CALLBACK_DATA } from '#simulator/message-request';
import type { SimulatorState } from '#simulator/state';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const invalid = callingErrors.invalidParameter;

const ACTIONS = ['connect', 'pre_accept', 'accept', 'reject', 'terminate'] as const;
type Action = (typeof ACTIONS)[number];

/** A business-scoped user id (Meta, "Business-scoped user IDs"). */
const USER_ID = /^[A-Z]{2}\.(ENT\.)?[A-Za-z0-9]{1,128}$/;

/** `session: { sdp_type, sdp }` of the kind the action needs; an empty SDP is an SDP validation error (100). */
function session(value: unknown, sdpType: 'offer' | 'answer'): string {
  if (!isObject(value)) throw invalid(`The parameter session is required: { sdp_type: "${sdpType}", sdp }.`);
  if (value.sdp_type !== sdpType) throw invalid(`Param session['sdp_type'] must be "${sdpType}".`);
  if (typeof value.sdp !== 'string' || !value.sdp.trim().startsWith('v=0')) throw invalid("SDP validation error: session['sdp'] must be an RFC 8866 SDP.");
  return value.sdp;
}

function callbackData(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.length > MAX_CALLBACK_DATA)
    throw invalid(`Param biz_opaque_callback_data must be a string of at most ${MAX_CALLBACK_DATA} characters.`);
  return value;
}

/** The callee: `to` (a phone number; it wins when both are given) and/or `recipient` (a user id). */
function callee(body: Json): { customer: string; userId?: string } {
  const userId = body.recipient;
  if (userId !== undefined && (typeof userId !== 'string' || !USER_ID.test(userId))) throw invalid('Param recipient must be a business-scoped user ID.');
  if (body.to === undefined || body.to === '') {
    if (!userId) throw invalid('The parameter to is required.');
    return { customer: userId, userId };
  }
  if (typeof body.to !== 'string' || !/^\+?[\d\s().-]+$/.test(body.to)) throw invalid('Param to must be a phone number.');
  const digits = body.to.replace(/\D/g, '');
  if (digits.length < 5 || digits.length > 15) throw invalid('Param to must be a phone number of 5 to 15 digits.');
  return { customer: platformWaId(digits), ...(userId !== undefined && { userId }) };
}

/** Business-initiated `connect`: a permission is needed (138006), one call per customer at a time (138003); RINGING follows. */
function connect(state: SimulatorState, phoneNumberId: string, body: Json): JsonResponse {
  const { customer, userId } = callee(body);
  const sdp = session(body.session, 'offer');
  const bizOpaque = callbackData(body.biz_opaque_callback_data);
  state.callPermissions.checkCall(phoneNumberId, customer);
  if (state.calls.ongoing(phoneNumberId, customer)) throw callingErrors.duplicateCall();
  const call = state.calls.add({
    phone_number_id: phoneNumberId,
    direction: 'BUSINESS_INITIATED',
    customer,
    ...(userId && { user_id: userId }),
    name: `Customer ${customer.slice(-4)}`,
    offer_sdp: sdp,
    ...(bizOpaque !== undefined && { biz_opaque_callback_data: bizOpaque }),
  });
  call.actions.push({ action: 'connect', at: Date.now() });
  state.calls.record(phoneNumberId, call.id, body);
  postLater(state, () => ring(state, call));
  return ok({ messaging_product: 'whatsapp', calls: [{ id: call.id }] });
}

/** The call an action names, of this number and not over, else 100. */
function activeCall(state: SimulatorState, phoneNumberId: string, body: Json): SimulatedCall {
  if (typeof body.call_id !== 'string' || !body.call_id.trim()) throw invalid('The parameter call_id is required.');
  const call = state.calls.get(body.call_id);
  if (!call || call.phone_number_id !== phoneNumberId) throw callingErrors.callNotActive(body.call_id, 'does not exist for this phone number');
  if (call.state === 'ended')
    throw callingErrors.callNotActive(call.id, `is no longer active (${call.ended_by === 'customer' ? 'ended by the user' : 'ended'})`);
  return call;
}

/** An action only the receiving side of a user-initiated call takes, while it has not been answered. */
function userInitiatedRinging(call: SimulatedCall, action: Action): void {
  if (call.direction !== 'USER_INITIATED') throw callingErrors.callNotActive(call.id, `is business-initiated: ${action} applies to user-initiated calls`);
  if (call.state === 'connected') throw callingErrors.callNotActive(call.id, 'is already connected');
}

/**
 * `POST /{version}/{phone_number_id}/calls` (docs/platform-calling.md §3; Meta "Calling API
 * reference"): `connect` answers `{ messaging_product, calls: [{ id }] }`, the other actions
 * `{ messaging_product, success: true }`. `pre_accept` and `accept` need the business's SDP answer;
 * `reject` and `terminate` end the call and the platform posts `terminate`. A SIP-enabled number is
 * 131055, a number without calling 138000; an action on a call that is over is 100.
 */
export const callAction =
  (state: SimulatorState) =>
  async (ctx: RouteContext): Promise<JsonResponse> => {
    const phoneNumberId = ctx.params.phoneNumberId;
    if (!/^\d+$/.test(phoneNumberId)) throw graphErrors.unsupportedRequest('POST', phoneNumberId);
    const body = await ctx.readJson();
    if (!isObject(body)) throw invalid('The request body must be a JSON object.');
    if (body.messaging_product !== 'whatsapp') throw invalid('Param messaging_product must be "whatsapp".');
    if (!ACTIONS.includes(body.action as Action)) throw invalid(`Param action must be one of ${ACTIONS.join(', ')}.`);
    if (state.callSettings.sipEnabled(phoneNumberId)) throw callingErrors.sipEnabled();
    if (!state.callSettings.enabled(phoneNumberId)) throw callingErrors.callingNotEnabled();
    const action = body.action as Action;
    if (action === 'connect') return connect(state, phoneNumberId, body);

    const call = activeCall(state, phoneNumberId, body);
    if (action === 'pre_accept' || action === 'accept') {
      userInitiatedRinging(call, action);
      const sdp = session(body.session, 'answer');
      const bizOpaque = callbackData(body.biz_opaque_callback_data);
      call.answer_sdp = sdp;
      if (bizOpaque !== undefined) call.biz_opaque_callback_data = bizOpaque;
      if (action === 'pre_accept') call.state = 'pre_accepted';
      else connectCall(state, call);
    } else if (action === 'reject') {
      userInitiatedRinging(call, action);
      await endCall(state, call, 'business', { later: true });
    } else {
      await endCall(state, call, 'business', { later: true });
    }
    call.actions.push({ action, at: Date.now() });
    state.calls.record(phoneNumberId, call.id, body);
    return ok({ messaging_product: 'whatsapp', success: true });
  };
