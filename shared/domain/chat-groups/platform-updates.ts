/**
 * What the platform's group webhooks change (docs/platform-groups.md §3): a creation completed or
 * refused, a deletion, participants joining and leaving, join requests, settings, suspension.
 * Each is idempotent (the queue may hand a webhook over twice) and found by the platform's ids.
 */
import { chatGroupByRef, rememberPlatformGroupId } from '#shared/data/chat-group';
import { changeChatGroup } from '#shared/domain/chat-groups/chat-group';
import { logger } from '#shared/logger';
import type { GroupPerson, GroupUpdate } from '#shared/platform/group-webhooks';
import { JOIN_APPROVAL_MODES, sameParticipant, type ChatGroup, type ChatGroupParticipant, type JoinApprovalMode } from '#shared/records/chat-group';
import type { Workspace } from '#shared/records/workspace';

const joinModeOf = (mode: string | null, current: JoinApprovalMode): JoinApprovalMode =>
  (JOIN_APPROVAL_MODES as readonly string[]).includes(mode ?? '') ? (mode as JoinApprovalMode) : current;

function withJoined(group: ChatGroup, people: GroupPerson[], at: string): ChatGroup {
  const joining = people.filter((person) => !group.participants.some((p) => sameParticipant(p, person)));
  // A customer who joins no longer waits for approval.
  const requests = group.join_requests.filter((request) => !people.some((person) => sameParticipant(request, person)));
  if (!joining.length && requests.length === group.join_requests.length) return group;
  const added: ChatGroupParticipant[] = joining.map((person) => ({ ...person, joined_at: at }));
  return { ...group, participants: [...group.participants, ...added], join_requests: requests };
}

function withLeft(group: ChatGroup, people: GroupPerson[]): ChatGroup {
  const staying = group.participants.filter((p) => !people.some((person) => sameParticipant(p, person)));
  return staying.length === group.participants.length ? group : { ...group, participants: staying };
}

/** The group's state after the update, or the same object when it changes nothing. */
function applied(group: ChatGroup, update: GroupUpdate): ChatGroup {
  switch (update.kind) {
    case 'created':
      if (group.status !== 'creating') return group;
      return {
        ...group,
        status: 'active',
        platform_group_id: update.groupId,
        invite_link: update.inviteLink,
        subject: update.subject ?? group.subject,
        join_approval_mode: joinModeOf(update.joinApprovalMode, group.join_approval_mode),
      };
    case 'create_failed':
      return group.status === 'creating' ? { ...group, status: 'failed', error: update.error } : group;
    case 'deleted':
      return group.status === 'deleted' ? group : { ...group, status: 'deleted', participants: [], join_requests: [] };
    case 'delete_failed':
      return group.status === 'deleted' ? { ...group, status: 'active', error: update.error } : group;
    case 'participants_added':
      return group.status === 'active' ? withJoined(group, update.people, update.at) : group;
    case 'participants_removed':
      return withLeft(group, update.people);
    case 'join_request_created':
      if (group.status !== 'active' || group.join_requests.some((request) => request.id === update.joinRequestId)) return group;
      return {
        ...group,
        join_requests: [
          ...group.join_requests,
          { id: update.joinRequestId, wa_id: update.person.wa_id, user_id: update.person.user_id, requested_at: update.at },
        ],
      };
    case 'join_request_revoked':
      return group.join_requests.some((request) => request.id === update.joinRequestId)
        ? { ...group, join_requests: group.join_requests.filter((request) => request.id !== update.joinRequestId) }
        : group;
    case 'settings': {
      const subject = update.subject ?? group.subject;
      const description = update.description ?? group.description;
      return subject === group.subject && description === group.description ? group : { ...group, subject, description };
    }
    case 'suspended':
      return group.suspended === update.suspended ? group : { ...group, suspended: update.suspended };
  }
}

/** Applies one group webhook item in the workspace of the number it names. */
export async function recordGroupUpdate(workspace: Workspace, update: GroupUpdate): Promise<void> {
  const byRequest = update.kind === 'created' || update.kind === 'create_failed';
  const group = byRequest ? await chatGroupByRef(workspace.id, 'request', update.requestId) : await chatGroupByRef(workspace.id, 'platform', update.groupId!);
  if (!group) {
    logger.warn('Group webhook for a group this service did not create', { kind: update.kind, groupId: update.groupId });
    return;
  }
  if (update.kind === 'created') await rememberPlatformGroupId(workspace.id, update.groupId!, group.id);
  await changeChatGroup(group, (current) => applied(current, update));
}
