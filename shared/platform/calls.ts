/**
 * The platform's Calling API (docs/platform-calling.md): a number's calling settings
 * (`/{phone_number_id}/settings`, §1) and call actions (`POST /{phone_number_id}/calls`, §3). The
 * SDP of a session is passed as given. Refusals come back as PlatformError with the platform's code.
 */
import { graphRequest, graphUrl, PlatformUnreachable } from '#shared/platform/graph-client';

const PRODUCT = { messaging_product: 'whatsapp' } as const;
const callsUrl = (phoneNumberId: string) => graphUrl(`${encodeURIComponent(phoneNumberId)}/calls`);
const settingsUrl = (phoneNumberId: string) => graphUrl(`${encodeURIComponent(phoneNumberId)}/settings`);

/** The `calling` object of a number's settings, as the platform keeps it (§1). */
export interface PlatformCallingSettings {
  status?: string;
  call_icon_visibility?: string;
  callback_permission_status?: string;
  call_hours?: Record<string, unknown>;
  [other: string]: unknown;
}

export async function fetchCallingSettings(phoneNumberId: string, token: string): Promise<PlatformCallingSettings> {
  const answer = await graphRequest<{ calling?: PlatformCallingSettings }>(settingsUrl(phoneNumberId), token);
  return answer.calling ?? {};
}

/** `POST /{phone_number_id}/settings` with the fields of `calling` to change; the platform keeps the others. */
export async function updateCallingSettings(phoneNumberId: string, token: string, calling: PlatformCallingSettings): Promise<void> {
  await graphRequest(settingsUrl(phoneNumberId), token, { calling });
}

/** A business-initiated call (§3): the platform's call id. Refused with 138006 without the customer's permission. */
export async function connectCall(
  phoneNumberId: string,
  token: string,
  call: { to?: string; userId?: string; sdp: string; callbackData: string },
): Promise<string> {
  const answer = await graphRequest<{ calls?: { id?: unknown }[] }>(callsUrl(phoneNumberId), token, {
    ...PRODUCT,
    ...(call.to && { to: call.to }),
    ...(call.userId && { recipient: call.userId }),
    action: 'connect',
    session: { sdp_type: 'offer', sdp: call.sdp },
    biz_opaque_callback_data: call.callbackData,
  });
  const id = answer.calls?.[0]?.id;
  if (typeof id !== 'string') throw new PlatformUnreachable(new Error('The platform answered no call id'));
  return id;
}

export type CallAction = 'pre_accept' | 'accept' | 'reject' | 'terminate';

/** An answer to a call (§3): pre-accept and accept carry the business's SDP answer. */
export async function callAction(phoneNumberId: string, token: string, platformCallId: string, action: CallAction, sdp?: string): Promise<void> {
  await graphRequest(callsUrl(phoneNumberId), token, {
    ...PRODUCT,
    call_id: platformCallId,
    action,
    ...(sdp !== undefined && { session: { sdp_type: 'answer', sdp } }),
  });
}
