/**
 * The platform's Groups API (docs/platform-groups.md §1): creating a group answers only a request
 * id (the group's id and invite link come in its `group_lifecycle_update` webhook); the other calls
 * name the platform's group id. Refusals come back as PlatformError with the platform's code.
 */
import { graphRequest, graphUrl, PlatformUnreachable } from '#shared/platform/graph-client';
import type { JoinApprovalMode } from '#shared/records/chat-group';

const PRODUCT = { messaging_product: 'whatsapp' } as const;
const groupUrl = (groupId: string, rest = '') => graphUrl(`${encodeURIComponent(groupId)}${rest}`);

/** `POST /{phone_number_id}/groups` (§1.1): the creation request's id. */
export async function requestGroupCreation(
  phoneNumberId: string,
  token: string,
  group: { subject: string; description: string | null; join_approval_mode: JoinApprovalMode },
): Promise<string> {
  const answer = await graphRequest<{ request_id?: unknown }>(graphUrl(`${encodeURIComponent(phoneNumberId)}/groups`), token, {
    ...PRODUCT,
    subject: group.subject,
    ...(group.description !== null && { description: group.description }),
    join_approval_mode: group.join_approval_mode,
  });
  if (typeof answer.request_id !== 'string' || !answer.request_id) throw new PlatformUnreachable(new Error('The platform answered no request id'));
  return answer.request_id;
}

/** `POST /{group_id}/invite_link` (§1.6): a new link; every earlier one stops working. */
export async function resetInviteLink(groupId: string, token: string): Promise<string> {
  const answer = await graphRequest<{ invite_link?: unknown }>(groupUrl(groupId, '/invite_link'), token, PRODUCT);
  if (typeof answer.invite_link !== 'string') throw new PlatformUnreachable(new Error('The platform answered no invite link'));
  return answer.invite_link;
}

/** `DELETE /{group_id}/participants` (§1.8), naming the customer by number or else by user id; the outcome comes by webhook. */
export async function removeGroupParticipant(groupId: string, token: string, participant: { wa_id: string | null; user_id: string | null }): Promise<void> {
  const named = participant.wa_id ? { user: participant.wa_id } : { user_id: participant.user_id };
  await graphRequest(groupUrl(groupId, '/participants'), token, { ...PRODUCT, participants: [named] }, 'DELETE');
}

/**
 * `POST` (approve) or `DELETE` (reject) `/{group_id}/join_requests` (§1.7) for one request: whether
 * the platform did it. A request it could not answer comes back in `failed_join_requests`.
 */
export async function answerJoinRequest(groupId: string, token: string, joinRequestId: string, approve: boolean): Promise<boolean> {
  const answer = await graphRequest<{ approved_join_requests?: unknown; rejected_join_requests?: unknown }>(
    groupUrl(groupId, '/join_requests'),
    token,
    { ...PRODUCT, join_requests: [joinRequestId] },
    approve ? 'POST' : 'DELETE',
  );
  const done = approve ? answer.approved_join_requests : answer.rejected_join_requests;
  return Array.isArray(done) && done.includes(joinRequestId);
}

/** `DELETE /{group_id}` (§1.5): the platform removes every participant and the group. */
export async function deletePlatformGroup(groupId: string, token: string): Promise<void> {
  await graphRequest(groupUrl(groupId), token, undefined, 'DELETE');
}
