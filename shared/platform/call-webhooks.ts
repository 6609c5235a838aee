/**
 * The `calls` webhook field (docs/platform-calling.md §4): a call's `connect` (a customer's call
 * with their SDP offer, or the customer's SDP answer to the business's call), its `terminate`
 * (how long it lasted, how it ended), and the business-initiated call's `statuses`
 * (`RINGING`, `ACCEPTED`, `REJECTED`). Anything malformed is left out; the parser knows the wire only.
 */
import { list, num, object, phoneOf, str, time, type Json } from '#shared/platform/webhook-values';

interface Common {
  phoneNumberId: string;
  platformCallId: string;
  at: string;
  /** The customer (for a user-initiated call `from`, for a business-initiated one `to`). */
  customer: { phone: string | null; userId: string | null };
  outbound: boolean;
}

export type CallUpdate = Common &
  (
    | { kind: 'connect'; sdpType: string | null; sdp: string | null }
    | {
        kind: 'terminate';
        completed: boolean;
        startedAt: string | null;
        endedAt: string | null;
        durationS: number | null;
        error: { code: number; message: string } | null;
      }
    | { kind: 'status'; status: 'ringing' | 'accepted' | 'rejected' }
  );

const STATUSES = { RINGING: 'ringing', ACCEPTED: 'accepted', REJECTED: 'rejected' } as const;

function firstError(value: Json): { code: number; message: string } | null {
  const error = list(value.errors)[0];
  return error ? { code: Number(error.code) || 0, message: str(error.message) ?? str(error.title) ?? 'Unknown error' } : null;
}

function readCall(call: Json, value: Json, phoneNumberId: string): CallUpdate | undefined {
  const platformCallId = str(call.id);
  const event = str(call.event);
  if (!platformCallId || !event) return undefined;
  const outbound = str(call.direction) === 'BUSINESS_INITIATED';
  const side = outbound ? 'to' : 'from';
  const common: Common = {
    phoneNumberId,
    platformCallId,
    at: time(call.timestamp),
    customer: { phone: phoneOf(call[side]), userId: str(call[`${side}_user_id`]) ?? null },
    outbound,
  };
  if (event === 'connect') {
    const session = object(call.session);
    return { ...common, kind: 'connect', sdpType: str(session?.sdp_type) ?? null, sdp: typeof session?.sdp === 'string' ? session.sdp : null };
  }
  if (event === 'terminate') {
    const duration = num(call.duration);
    return {
      ...common,
      kind: 'terminate',
      completed: str(call.status)?.toUpperCase() === 'COMPLETED',
      startedAt: call.start_time === undefined ? null : time(call.start_time),
      endedAt: call.end_time === undefined ? null : time(call.end_time),
      durationS: duration === null ? null : Math.max(0, Math.round(duration)),
      error: firstError(value),
    };
  }
  return undefined;
}

function readStatus(status: Json, phoneNumberId: string): CallUpdate | undefined {
  const platformCallId = str(status.id);
  const name = STATUSES[str(status.status)?.toUpperCase() as keyof typeof STATUSES];
  if (!platformCallId || !name || (status.type !== undefined && status.type !== 'call')) return undefined;
  return {
    phoneNumberId,
    platformCallId,
    at: time(status.timestamp),
    customer: { phone: phoneOf(status.recipient_id), userId: str(status.recipient_user_id) ?? null },
    outbound: true,
    kind: 'status',
    status: name,
  };
}

/** The call updates of one `calls` change, for the number in its metadata. */
export function readCallUpdates(value: Json): CallUpdate[] {
  const phoneNumberId = str(object(value.metadata)?.phone_number_id);
  if (!phoneNumberId) return [];
  return [
    ...list(value.calls).flatMap((call) => readCall(call, value, phoneNumberId) ?? []),
    ...list(value.statuses).flatMap((status) => readStatus(status, phoneNumberId) ?? []),
  ];
}

/**
 * A customer's `call_permission_reply` (§2.2): accepted (temporary until `expiration_timestamp`, or
 * permanent) or rejected. Read from an interactive message, which is also stored as one.
 */
export interface CallPermissionReply {
  phoneNumberId: string;
  customer: { phone: string | null; userId: string | null };
  at: string;
  granted: boolean;
  permanent: boolean;
  expiresAt: string | null;
}

export function readPermissionReply(message: Json, phoneNumberId: string, customer: CallPermissionReply['customer']): CallPermissionReply | undefined {
  const reply = object(object(message.interactive)?.call_permission_reply);
  const response = str(reply?.response);
  if (object(message.interactive)?.type !== 'call_permission_reply' || !reply || (response !== 'accept' && response !== 'reject')) return undefined;
  const granted = response === 'accept';
  const permanent = granted && reply.is_permanent === true;
  const expiry = num(reply.expiration_timestamp);
  return {
    phoneNumberId,
    customer,
    at: time(message.timestamp),
    granted,
    permanent,
    expiresAt: granted && !permanent && expiry !== null ? time(expiry) : null,
  };
}
