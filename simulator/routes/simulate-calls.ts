import { answerCall, endCall, postConnect } from '#simulator/call-flow';
import { deliverPermissionReply, lastPermissionRequest } from '#simulator/call-permission-reply';
import { CUSTOMER_SDP_ANSWER, CUSTOMER_SDP_OFFER } from '#simulator/call-webhooks';
import type { SimulatedCall } from '#simulator/calls';
import { GraphError, graphErrors } from '#simulator/graph-error';
import { ok, type JsonResponse, type RouteContext } from '#simulator/http';
import { digits } from '#simulator/routes/simulate-inbound';
import type { SimulatorState } from '#simulator/state';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const conflict = (message: string) => new GraphError(409, 100, 'SimulatorException', message);

async function objectBody(ctx: RouteContext, shape: string): Promise<Json> {
  const body = (await ctx.readJson()) ?? {};
  if (!isObject(body)) throw graphErrors.invalidParameter(`Body must be a JSON object ${shape}`);
  return body;
}

function needsWebhookUrl(state: SimulatorState): void {
  if (!state.webhooks.hasUrl) throw conflict('No webhook URL configured (SimulatorOptions.webhookUrl or setWebhookUrl)');
}

function sdpOf(value: unknown, fallback: string): string {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !value.startsWith('v=0')) throw graphErrors.invalidParameter('sdp must be an RFC 8866 SDP (starting "v=0")');
  return value;
}

/** The call a control names (its id URL-encoded in the path), still going on. */
function ongoingCall(state: SimulatorState, encodedId: string): SimulatedCall {
  let id = encodedId;
  try {
    id = decodeURIComponent(encodedId);
  } catch {
    // Not encoded: taken as it is.
  }
  const call = state.calls.get(id);
  if (!call) throw graphErrors.invalidParameter(`No call ${id} in this simulator`);
  if (call.state === 'ended') throw conflict(`Call ${id} is already over`);
  return call;
}

const delivered = (result: { status: number | null; error?: string }) => ({ delivered_status: result.status, ...(result.error && { error: result.error }) });

/**
 * `POST /_simulate/calls/incoming` `{ phone_number_id, from, sdp?, name? }`: a customer calls the
 * business (a user-initiated call). The number must have calling enabled (customers cannot call
 * otherwise). Posts the `connect` webhook with the customer's SDP offer (docs/platform-calling.md
 * §4.1; the example's offer by default) and answers `{ call_id, delivered_status }`. With
 * `callback_permission_status: ENABLED` and no permission yet, calling grants the business a
 * temporary permission, announced as a `call_permission_reply` with `response_source: automatic` and
 * the call's id as `context.id` (§2.2).
 */
export const simulateIncomingCall =
  (state: SimulatorState) =>
  async (ctx: RouteContext): Promise<JsonResponse> => {
    const body = await objectBody(ctx, '{ phone_number_id, from, sdp?, name? }');
    const phoneNumberId = digits(body.phone_number_id, 'phone_number_id');
    const from = digits(body.from, 'from');
    const sdp = sdpOf(body.sdp, CUSTOMER_SDP_OFFER);
    if (body.name !== undefined && typeof body.name !== 'string') throw graphErrors.invalidParameter('name must be a string');
    needsWebhookUrl(state);
    if (!state.callSettings.enabled(phoneNumberId) || state.callSettings.sipEnabled(phoneNumberId))
      throw conflict(`Calling is not enabled (or is SIP) on ${phoneNumberId}: POST /{version}/${phoneNumberId}/settings first`);
    if (state.calls.ongoing(phoneNumberId, from)) throw conflict(`${from} is already on a call with ${phoneNumberId}`);
    const name = body.name || `Customer ${from.slice(-4)}`;
    const call = state.calls.add({ phone_number_id: phoneNumberId, direction: 'USER_INITIATED', customer: from, name, offer_sdp: sdp });
    const result = await postConnect(state, call);
    const callback = state.callSettings.get(phoneNumberId).callback_permission_status === 'ENABLED';
    if (callback && state.callPermissions.status(phoneNumberId, from).status === 'no_permission')
      await deliverPermissionReply(state, phoneNumberId, from, { accept: true, permanent: false, source: 'automatic', context: call.id, name });
    return ok({ call_id: call.id, ...delivered(result) });
  };

/**
 * `POST /_simulate/calls/{call_id}/hangup` `{ duration_s? }`: the customer ends the call and the
 * platform posts `terminate` (§4.3): COMPLETED with `duration` (`duration_s`, else the seconds since
 * it connected) for a connected call, FAILED without times for one never answered.
 */
export const simulateHangUp =
  (state: SimulatorState) =>
  async (ctx: RouteContext): Promise<JsonResponse> => {
    const body = await objectBody(ctx, '{ duration_s? }');
    const call = ongoingCall(state, ctx.params.callId);
    const duration = body.duration_s;
    if (duration !== undefined && (typeof duration !== 'number' || !Number.isInteger(duration) || duration < 0))
      throw graphErrors.invalidParameter('duration_s must be a non-negative integer');
    needsWebhookUrl(state);
    const result = await endCall(state, call, 'customer', { durationS: call.connected_at === undefined ? undefined : duration });
    return ok({ ok: true, ...delivered(result) });
  };

/**
 * `POST /_simulate/calls/{call_id}/answer` `{ accept, sdp? }`: the customer answers a ringing
 * business-initiated call. Accepted: the `connect` webhook with their SDP answer (§4.2), then the
 * ACCEPTED status; declined: REJECTED, then `terminate` (§4.4).
 */
export const simulateAnswerCall =
  (state: SimulatorState) =>
  async (ctx: RouteContext): Promise<JsonResponse> => {
    const body = await objectBody(ctx, '{ accept, sdp? }');
    const call = ongoingCall(state, ctx.params.callId);
    if (typeof body.accept !== 'boolean') throw graphErrors.invalidParameter('accept must be a boolean');
    if (call.direction !== 'BUSINESS_INITIATED' || call.state !== 'ringing') throw conflict(`Call ${call.id} is not a ringing business-initiated call`);
    const sdp = sdpOf(body.sdp, CUSTOMER_SDP_ANSWER);
    needsWebhookUrl(state);
    const result = await answerCall(state, call, body.accept, sdp);
    return ok({ ok: true, ...delivered(result) });
  };

/**
 * `POST /_simulate/call-permissions/reply` `{ phone_number_id, from, accept, permanent?, name? }`:
 * the customer answers the number's last call permission request (its wamid as `context.id`; none
 * without one, as from the business profile). The simulator's permission state follows: a
 * business-initiated `connect` is allowed after an accept. Answers `{ ok, wamid, permission, delivered_status }`.
 */
export const simulatePermissionReply =
  (state: SimulatorState) =>
  async (ctx: RouteContext): Promise<JsonResponse> => {
    const body = await objectBody(ctx, '{ phone_number_id, from, accept, permanent? }');
    const phoneNumberId = digits(body.phone_number_id, 'phone_number_id');
    const from = digits(body.from, 'from');
    if (typeof body.accept !== 'boolean') throw graphErrors.invalidParameter('accept must be a boolean');
    if (body.permanent !== undefined && typeof body.permanent !== 'boolean') throw graphErrors.invalidParameter('permanent must be a boolean');
    if (body.name !== undefined && typeof body.name !== 'string') throw graphErrors.invalidParameter('name must be a string');
    needsWebhookUrl(state);
    const context = lastPermissionRequest(state, phoneNumberId, from);
    const reply = { accept: body.accept, permanent: body.permanent === true, source: 'user_action' as const, context, name: body.name };
    const { message, result } = await deliverPermissionReply(state, phoneNumberId, from, reply);
    const permission = state.callPermissions.view(phoneNumberId, from).permission;
    return ok({ ok: true, wamid: message.id, permission, ...delivered(result) });
  };

/**
 * `GET /_simulate/calls[?phone_number_id=]`: the call requests the simulator accepted, oldest first,
 * each the body as sent with `call_id` (a `connect`'s new call), `phone_number_id` and `received_at`
 * (refused requests are not listed, as for `GET /_simulate/messages`).
 */
export const listCallRequests =
  (state: SimulatorState) =>
  (ctx: RouteContext): JsonResponse =>
    ok({ data: state.calls.requestsOf(ctx.url.searchParams.get('phone_number_id') ?? undefined) });

/** `GET /_simulate/call-states[?phone_number_id=]`: the calls, oldest first, with their direction, state, status, duration and the actions posted for them. */
export const listCallStates =
  (state: SimulatorState) =>
  (ctx: RouteContext): JsonResponse =>
    ok({ data: state.calls.list(ctx.url.searchParams.get('phone_number_id') ?? undefined) });

/** `GET /_simulate/call-settings?phone_number_id=`: the number's `calling` settings as `GET /{phone_number_id}/settings` answers them, without a token. */
export const getSimulatedCallSettings =
  (state: SimulatorState) =>
  (ctx: RouteContext): JsonResponse =>
    ok({ calling: state.callSettings.view(digits(ctx.url.searchParams.get('phone_number_id'), 'phone_number_id'), 'get') });
