/**
 * Answering a customer's call, or ending any call (contract §23): checked against the call as
 * stored first (a call that is over, or one of the business's own for pre-accept, accept and
 * reject: 409 `invalid_state`, nothing sent), then the platform is asked with the SDP passed
 * through untouched. How and when the call ends is the platform's report (platform-updates.ts).
 */
import { errors } from '#shared/errors';
import { changeCall, requireCall } from '#shared/domain/calls/call';
import { onPlatform } from '#shared/domain/platform-calls';
import { accessTokenFor } from '#shared/platform/secrets';
import { callAction, type CallAction } from '#shared/platform/calls';
import { callIsOver, type Call } from '#shared/records/call';
import { nowIso } from '#shared/time';

const DOING: Record<CallAction, string> = {
  pre_accept: 'pre-accept the call',
  accept: 'accept the call',
  reject: 'reject the call',
  terminate: 'end the call',
};

/** The call after the platform took the action: an accept connects it, a reject ends it; pre-accept and terminate change it when the platform reports. */
function afterAction(call: Call, action: CallAction, sdp: string | undefined, at: string): Call {
  if (callIsOver(call.status)) return call;
  if (action === 'pre_accept') return call.sdp_answer === sdp ? call : { ...call, sdp_answer: sdp ?? null };
  if (action === 'accept') return call.status === 'accepted' ? call : { ...call, status: 'accepted', sdp_answer: sdp ?? null, started_at: at };
  if (action === 'reject') return { ...call, status: 'rejected', ended_at: at };
  return call;
}

export async function answerCall(ws: string, id: string, action: CallAction, sdp?: string): Promise<Call> {
  const call = await requireCall(ws, id);
  if (callIsOver(call.status)) throw errors.invalidState(`The call is ${call.status}`);
  if (action !== 'terminate' && call.direction !== 'inbound') throw errors.invalidState("Only a customer's call is pre-accepted, accepted or rejected");
  if ((action === 'pre_accept' || action === 'accept' || action === 'reject') && call.status !== 'ringing')
    throw errors.invalidState(`The call is ${call.status}`);
  const token = await accessTokenFor(ws);
  await onPlatform(DOING[action], () => callAction(call.business_number_id, token, call.platform_call_id, action, sdp));
  return changeCall(call, (current) => afterAction(current, action, sdp, nowIso()));
}
