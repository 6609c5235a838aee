/**
 * What the platform's call webhooks change (docs/platform-calling.md §2.2, §4): a customer's call
 * arriving (ringing, with their SDP offer; it opens their window, answered or not), the customer's
 * answer to the business's call, how a call ended (its duration and cost), and the customer's
 * reply to a permission request. Each is idempotent, found by the platform's call id; statuses
 * never move back, and a report of a call the service never saw is logged and dropped.
 */
import { callByPlatformId, insertCall, putCallPermission } from '#shared/data/call';
import { changeCall } from '#shared/domain/calls/call';
import { callCost } from '#shared/domain/calls/cost';
import { openWindow } from '#shared/domain/messages/window';
import { rateCardOf } from '#shared/domain/pricing/rate-cards';
import { newId } from '#shared/ids';
import { logger } from '#shared/logger';
import type { CallPermissionReply, CallUpdate } from '#shared/platform/call-webhooks';
import { callIsOver, type Call } from '#shared/records/call';
import type { Workspace } from '#shared/records/workspace';
import { nowIso } from '#shared/time';

const customerKey = (customer: { phone: string | null; userId: string | null }) => customer.phone ?? customer.userId;

/** A customer's call, as its `connect` reports it: stored `ringing` once, however often the webhook comes. */
async function customerCalls(workspace: Workspace, update: Extract<CallUpdate, { kind: 'connect' }>): Promise<void> {
  const key = customerKey(update.customer);
  if (key) await openWindow(workspace, update.phoneNumberId, key, update.at);
  if (await callByPlatformId(workspace.id, update.platformCallId)) return;
  await insertCall({
    id: newId(),
    workspace_id: workspace.id,
    business_number_id: update.phoneNumberId,
    direction: 'inbound',
    phone_number: update.customer.phone ?? '',
    user_id: update.customer.userId,
    platform_call_id: update.platformCallId,
    status: 'ringing',
    sdp_offer: update.sdp,
    sdp_answer: null,
    started_at: null,
    ended_at: null,
    duration_s: null,
    cost: null,
    error: null,
    created_at: update.at,
    updated_at: nowIso(),
  });
}

/** How the call ended: ended after it connected, missed or failed before; a call already over keeps its status and gets its duration and cost. */
function ended(call: Call, update: Extract<CallUpdate, { kind: 'terminate' }>, card: Awaited<ReturnType<typeof rateCardOf>>): Call {
  if (call.duration_s !== null && callIsOver(call.status)) return call;
  const connected = call.status === 'accepted' || (update.durationS ?? 0) > 0;
  const status = callIsOver(call.status) ? call.status : connected ? 'ended' : update.error && !update.completed ? 'failed' : 'missed';
  const duration = connected ? (update.durationS ?? 0) : 0;
  return {
    ...call,
    status,
    started_at: call.started_at ?? (connected ? update.startedAt : null),
    ended_at: update.endedAt ?? update.at,
    duration_s: duration,
    cost: callCost(card, { direction: call.direction, phone_number: call.phone_number, duration_s: duration }),
    error: update.error ?? call.error,
  };
}

/** The business's call as the customer's phone reports it: ringing, answered (with their SDP answer), declined. */
function answered(call: Call, update: CallUpdate): Call {
  if (callIsOver(call.status) || call.status === 'accepted') {
    // The SDP answer may come after the `accepted` status: it is still the customer's answer.
    return update.kind === 'connect' && call.status === 'accepted' && !call.sdp_answer && update.sdp ? { ...call, sdp_answer: update.sdp } : call;
  }
  if (update.kind === 'connect') return { ...call, status: 'accepted', sdp_answer: update.sdp, started_at: update.at };
  if (update.kind === 'status' && update.status === 'accepted') return { ...call, status: 'accepted', started_at: update.at };
  if (update.kind === 'status' && update.status === 'rejected') return { ...call, status: 'rejected', ended_at: update.at };
  return call;
}

export async function recordCallUpdate(workspace: Workspace, update: CallUpdate): Promise<void> {
  if (update.kind === 'connect' && !update.outbound) return customerCalls(workspace, update);
  const call = await callByPlatformId(workspace.id, update.platformCallId);
  if (!call) {
    logger.warn('Call webhook for a call the service never saw', { kind: update.kind, platformCallId: update.platformCallId });
    return;
  }
  if (update.kind === 'terminate') {
    const card = await rateCardOf(workspace.id);
    await changeCall(call, (current) => ended(current, update, card));
    return;
  }
  const written = await changeCall(call, (current) => answered(current, update));
  // A customer who answers the business's call opens their window, as the platform does.
  const key = customerKey(update.customer) ?? (call.phone_number || call.user_id);
  if (written.status === 'accepted' && key) await openWindow(workspace, update.phoneNumberId, key, update.at);
}

/** A customer's answer to a permission request; an earlier answer delivered late changes nothing. */
export async function recordPermissionReply(workspace: Workspace, reply: CallPermissionReply): Promise<void> {
  const customer = customerKey(reply.customer);
  if (!customer) return;
  await putCallPermission({
    workspace_id: workspace.id,
    business_number_id: reply.phoneNumberId,
    customer,
    status: reply.granted ? 'granted' : 'denied',
    permanent: reply.permanent,
    expires_at: reply.expiresAt,
    updated_at: reply.at,
  });
}
