/**
 * The business's side of calling (contract §23): asking a customer for permission to call them
 * (an interactive `call_permission_request` message, sent as any message, inside the customer's
 * window), and calling a customer who granted it. A call without a permission is refused before
 * the platform is asked; the platform's own refusal (138006) is answered the same.
 */
import { errors } from '#shared/errors';
import { getCallPermission, insertCall } from '#shared/data/call';
import { acceptMessage } from '#shared/domain/messages/accept';
import { senderOf } from '#shared/domain/numbers/sender';
import { platformFailure } from '#shared/domain/platform-calls';
import { newId } from '#shared/ids';
import { PlatformError } from '#shared/platform/graph-client';
import { connectCall } from '#shared/platform/calls';
import { accessTokenFor } from '#shared/platform/secrets';
import type { Call, CallPermission } from '#shared/records/call';
import type { Workspace } from '#shared/records/workspace';
import { nowIso } from '#shared/time';

/** "No approved call permission from the recipient" (docs/platform-calling.md §3). */
const NO_PERMISSION = 138006;

export const permissionHeld = (permission: CallPermission | undefined, now = Date.now()): boolean =>
  permission?.status === 'granted' && (permission.permanent || (permission.expires_at !== null && Date.parse(permission.expires_at) > now));

const permissionRequired = () =>
  errors.refused('call_permission_required', 'The customer has not granted this number permission to call them: send a permission request first');

/** Sends the platform's call permission request to a customer (a free-form message: their window must be open). */
export const requestCallPermission = (workspace: Workspace, request: { to: string; from?: string; body?: string }) =>
  acceptMessage(
    workspace,
    { to: request.to, from: request.from, interactive: { type: 'call_permission_request', ...(request.body && { body: request.body }) } },
    newId(),
  );

/** Starts a business-initiated call with the business's SDP offer; the customer's answer comes by webhook (`call.accepted`). */
export async function placeCall(workspace: Workspace, request: { to: string; from?: string; sdp: string }): Promise<Call> {
  const sender = await senderOf(workspace, request.from);
  if (!permissionHeld(await getCallPermission(workspace.id, sender.id, request.to))) throw permissionRequired();
  const id = newId();
  const token = await accessTokenFor(workspace.id);
  let platformCallId: string;
  try {
    platformCallId = await connectCall(sender.id, token, { to: request.to, sdp: request.sdp, callbackData: id });
  } catch (error) {
    if (error instanceof PlatformError && error.code === NO_PERMISSION) throw permissionRequired();
    return platformFailure(error, 'start the call');
  }
  const now = nowIso();
  return insertCall({
    id,
    workspace_id: workspace.id,
    business_number_id: sender.id,
    direction: 'outbound',
    phone_number: request.to,
    user_id: null,
    platform_call_id: platformCallId,
    status: 'ringing',
    sdp_offer: request.sdp,
    sdp_answer: null,
    started_at: null,
    ended_at: null,
    duration_s: null,
    cost: null,
    error: null,
    created_at: now,
    updated_at: now,
  });
}
