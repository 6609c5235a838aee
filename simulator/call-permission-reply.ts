import { displayPhoneNumber, newWamid } from '#simulator/ids';
import { deliverInbound } from '#simulator/routes/simulate-inbound';
import type { SimulatorState } from '#simulator/state';
import { unixSeconds, type InboundMessage } from '#simulator/webhook-payloads';

/** What the customer answered, and how: by tapping (`user_action`) or by the platform (`automatic`). */
export interface PermissionReply {
  accept: boolean;
  permanent: boolean;
  source: 'user_action' | 'automatic';
  /** The message or call the reply is about: a permission request's wamid, or a call's wacid for a callback permission; none from the business profile. */
  context?: string;
  name?: string;
}

/** The last call permission request this number sent this customer, if any (its wamid). */
export function lastPermissionRequest(state: SimulatorState, phoneNumberId: string, customer: string): string | undefined {
  const sent = state.sent
    .list(customer)
    .filter((m) => m.phone_number_id === phoneNumberId)
    .filter((m) => (m.request as { interactive?: { type?: string } } | undefined)?.interactive?.type === 'call_permission_request');
  return sent.at(-1)?.wamid;
}

/**
 * Records the customer's answer in the permission state and posts the `call_permission_reply`
 * interactive message (docs/platform-calling.md §2.2, Meta "Obtain user call permissions", Jun 26
 * 2026): `response`, `is_permanent` (the current page's new field), `expiration_timestamp` as a
 * string for a temporary accept only, `response_source`; `context.from` is the business number (the
 * MWRS fixture). A reject carries only `response` and `response_source`, as the scenarios table shows.
 */
export async function deliverPermissionReply(state: SimulatorState, phoneNumberId: string, customer: string, reply: PermissionReply) {
  const expiresAt = state.callPermissions.reply(phoneNumberId, customer, reply.accept, reply.permanent);
  const answer = reply.accept
    ? {
        response: 'accept',
        is_permanent: reply.permanent,
        ...(expiresAt !== undefined && { expiration_timestamp: unixSeconds(expiresAt) }),
        response_source: reply.source,
      }
    : { response: 'reject', response_source: reply.source };
  const message: InboundMessage = {
    ...(reply.context && { context: { from: displayPhoneNumber(phoneNumberId), id: reply.context } }),
    from: customer,
    id: newWamid(customer, 'inbound'),
    timestamp: unixSeconds(),
    type: 'interactive',
    interactive: { type: 'call_permission_reply', call_permission_reply: answer },
  };
  const result = await deliverInbound(state, phoneNumberId, { name: reply.name ?? `Customer ${customer.slice(-4)}`, waId: customer }, message);
  return { message, result, expiresAt };
}
