import { deliverPermissionReply } from '#simulator/call-permission-reply';
import { callStatusWebhook, connectWebhook, terminateWebhook, type CallStatusName } from '#simulator/call-webhooks';
import type { SimulatedCall } from '#simulator/calls';
import { businessNumber, type SimulatorState } from '#simulator/state';

/**
 * What happens to a call once it exists, shared by the `/calls` route and the `/_simulate/calls`
 * controls: each step changes the call in the store and posts the platform's webhook (signed,
 * retried, through `state.webhooks`). Webhooks that follow a Graph request come one status interval
 * after it; those a control causes are posted at once, and the control answers with the delivery.
 */
const numberOf = (state: SimulatorState, call: SimulatedCall) => businessNumber(state, call.phone_number_id);

export const postConnect = (state: SimulatorState, call: SimulatedCall) => state.webhooks.post(connectWebhook(numberOf(state, call), call));

export const postCallStatus = (state: SimulatorState, call: SimulatedCall, status: CallStatusName) =>
  state.webhooks.post(callStatusWebhook(numberOf(state, call), call, status));

/** A business-initiated call's RINGING, once, and only while it is not over. */
export async function ring(state: SimulatorState, call: SimulatedCall): Promise<void> {
  if (call.rang || call.state === 'ended') return;
  call.rang = true;
  await postCallStatus(state, call, 'RINGING');
}

/** Posts after the status interval (the webhooks that follow a Graph request's answer), in order. */
export function postLater(state: SimulatorState, ...posts: (() => Promise<unknown>)[]): void {
  const interval = state.faults.current.status_interval_ms;
  const next = (i: number) => {
    if (i < posts.length) state.webhooks.later(interval, () => void posts[i]().then(() => next(i + 1)));
  };
  next(0);
}

/** The call connects: the permission request limits reset ("any connected call"), and a business-initiated one counts against its 24-hour limit. */
export function connectCall(state: SimulatorState, call: SimulatedCall): void {
  state.calls.connect(call);
  state.callPermissions.connected(call.phone_number_id, call.customer, call.direction === 'BUSINESS_INITIATED');
}

/**
 * The call ends and the platform posts `terminate`. A business-initiated call the customer never
 * answered counts as unanswered: the fourth in a row revokes the permission, which the platform
 * announces as a `call_permission_reply` `reject` with `response_source: automatic` and no context
 * (docs/platform-calling.md §0, §2.2).
 */
export async function endCall(
  state: SimulatorState,
  call: SimulatedCall,
  endedBy: 'business' | 'customer',
  options: { durationS?: number; later?: boolean } = {},
): Promise<{ status: number | null; error?: string }> {
  const unanswered = call.direction === 'BUSINESS_INITIATED' && call.connected_at === undefined;
  state.calls.end(call, endedBy, Date.now(), options.durationS);
  const terminate = () => state.webhooks.post(terminateWebhook(numberOf(state, call), call));
  const revoked = unanswered && state.callPermissions.unanswered(call.phone_number_id, call.customer);
  const revoke = async () => {
    if (revoked)
      await deliverPermissionReply(state, call.phone_number_id, call.customer, { accept: false, permanent: false, source: 'automatic', name: call.name });
  };
  if (options.later) {
    postLater(state, terminate, revoke);
    return { status: null };
  }
  const result = await terminate();
  await revoke();
  return result;
}

/** The customer answers a business-initiated call: accepted, the `connect` with their SDP answer then ACCEPTED; declined, REJECTED then `terminate`. */
export async function answerCall(state: SimulatorState, call: SimulatedCall, accept: boolean, answerSdp: string) {
  // The phone rang before the customer could answer it.
  await ring(state, call);
  if (!accept) {
    const result = await postCallStatus(state, call, 'REJECTED');
    await endCall(state, call, 'customer');
    return result;
  }
  call.answer_sdp = answerSdp;
  connectCall(state, call);
  const result = await postConnect(state, call);
  // "The ACCEPTED call status webhook arrives after the call is established … for call event auditing."
  await postCallStatus(state, call, 'ACCEPTED');
  return result;
}
