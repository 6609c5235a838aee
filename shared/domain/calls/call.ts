/**
 * A call's rules shared by its operations (contract §23): the call log's view, the read that
 * refuses a call of no such id, and the write that re-reads and decides again when another write
 * came first (the platform's webhooks and the API's answers change the same item).
 */
import { errors } from '#shared/errors';
import { getCall, replaceCall, type StoredCall } from '#shared/data/call';
import type { Call } from '#shared/records/call';
import { nowIso } from '#shared/time';

const MAX_ATTEMPTS = 8;

export const callView = (call: Call) => ({
  id: call.id,
  from: call.business_number_id,
  direction: call.direction,
  phone_number: call.phone_number,
  user_id: call.user_id,
  status: call.status,
  started_at: call.started_at,
  ended_at: call.ended_at,
  duration_s: call.duration_s,
  cost: call.cost,
  error: call.error,
  sdp_offer: call.sdp_offer,
  sdp_answer: call.sdp_answer,
  platform_call_id: call.platform_call_id,
  created_at: call.created_at,
  updated_at: call.updated_at,
});

export async function requireCall(ws: string, id: string): Promise<StoredCall> {
  const call = await getCall(ws, id, true);
  if (!call) throw errors.notFound('Call');
  return call;
}

/** Applies `change` to the call as it stands, retrying on a concurrent write; `change` returns the same object when there is nothing to do. */
export async function changeCall(current: StoredCall, change: (call: Call) => Call): Promise<StoredCall> {
  let call = current;
  for (let attempt = 1; ; attempt++) {
    const next = change(call);
    if (next === call) return call;
    const written = { ...next, updated_at: nowIso() };
    if (await replaceCall(call, written)) return { ...written, version: call.version + 1 };
    if (attempt === MAX_ATTEMPTS) throw errors.invalidState('The call is changing concurrently; try again');
    call = await requireCall(current.workspace_id, current.id);
  }
}
