import type { DynamoDBRecord } from 'aws-lambda';
import { callView } from '#shared/domain/calls/call';
import type { EventType } from '#shared/events/event';
import { callIsOver, type Call, type CallPermission } from '#shared/records/call';

type Events = { type: EventType; data: unknown }[];

/**
 * A call's change as events (contract §23): a customer's call stored ringing is `call.ringing`
 * (with their SDP offer); a call that connects is `call.accepted`; a call that is over is
 * `call.ended`, once, when its status first says so (its duration and cost may follow in a later write).
 */
export function callEvents(name: DynamoDBRecord['eventName'], call: Call | undefined, before: Call | undefined): Events {
  if (!call) return [];
  const data = callView(call);
  if (name === 'INSERT') return call.direction === 'inbound' && call.status === 'ringing' ? [{ type: 'call.ringing', data }] : [];
  if (name !== 'MODIFY' || !before || call.status === before.status) return [];
  if (call.status === 'accepted') return [{ type: 'call.accepted', data }];
  return callIsOver(call.status) && !callIsOver(before.status) ? [{ type: 'call.ended', data }] : [];
}

/** A customer's permission as they last set it. */
export function permissionEvents(name: DynamoDBRecord['eventName'], permission: CallPermission | undefined, before: CallPermission | undefined): Events {
  if (!permission || name === 'REMOVE') return [];
  const shown = (p: CallPermission) => JSON.stringify([p.status, p.permanent, p.expires_at]);
  if (before && shown(before) === shown(permission)) return [];
  return [
    {
      type: 'call.permission_changed',
      data: {
        from: permission.business_number_id,
        customer: permission.customer,
        status: permission.status,
        permanent: permission.permanent,
        expires_at: permission.expires_at,
        updated_at: permission.updated_at,
      },
    },
  ];
}
