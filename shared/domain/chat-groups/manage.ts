/**
 * What a business does with its chat groups through the API (contract §23). Each call is checked
 * against the group as stored first (a group not yet created, deleted, a participant or join
 * request it does not have: refused with nothing sent); the platform is then asked, and what it
 * reports later by webhook (a participant gone, a deletion) lands in platform-updates.ts.
 */
import { errors } from '#shared/errors';
import { chatGroupsPage } from '#shared/data/chat-group';
import { changeChatGroup, requireChatGroup } from '#shared/domain/chat-groups/chat-group';
import { onPlatform } from '#shared/domain/platform-calls';
import { pagination } from '#shared/pagination';
import { accessTokenFor } from '#shared/platform/secrets';
import { answerJoinRequest as answerOnPlatform, deletePlatformGroup, removeGroupParticipant, resetInviteLink } from '#shared/platform/chat-groups';
import { CHAT_GROUP_LIMITS, type ChatGroup } from '#shared/records/chat-group';

export async function listChatGroups(ws: string, page: number, pageSize: number) {
  const { groups, total } = await chatGroupsPage(ws, page, pageSize);
  return { groups, pagination: pagination(page, pageSize, total) };
}

/** The group, if the platform runs it now: a group still being created, failed or deleted has no platform id to call with. */
async function activeGroup(ws: string, id: string) {
  const group = await requireChatGroup(ws, id, true);
  if (group.status !== 'active' || !group.platform_group_id) throw errors.invalidState(`The chat group is ${group.status}`);
  return { group, platformId: group.platform_group_id };
}

export async function listParticipants(ws: string, id: string) {
  const group = await requireChatGroup(ws, id);
  return group.participants;
}

/** A new invite link: the platform's reset makes every earlier link stop working. */
export async function newInviteLink(ws: string, id: string): Promise<ChatGroup> {
  const { group, platformId } = await activeGroup(ws, id);
  const token = await accessTokenFor(ws);
  const link = await onPlatform('reset the invite link', () => resetInviteLink(platformId, token));
  return changeChatGroup(group, (current) => (current.invite_link === link ? current : { ...current, invite_link: link }));
}

/** Asks the platform to remove a participant (named by number or user id); they leave the list when its webhook confirms. */
export async function removeParticipant(ws: string, id: string, who: string): Promise<ChatGroup> {
  const { group, platformId } = await activeGroup(ws, id);
  const participant = group.participants.find((p) => p.wa_id === who.replace(/^\+/, '') || p.user_id === who);
  if (!participant) throw errors.notFound('Participant');
  const token = await accessTokenFor(ws);
  await onPlatform('remove the participant', () => removeGroupParticipant(platformId, token, participant));
  return group;
}

/** Approves or rejects a join request; an approved customer joins when the platform's webhook says so. */
export async function answerJoinRequest(ws: string, id: string, joinRequestId: string, approve: boolean): Promise<ChatGroup> {
  const { group, platformId } = await activeGroup(ws, id);
  if (!group.join_requests.some((request) => request.id === joinRequestId)) throw errors.notFound('Join request');
  // The platform's limit, checked before it is asked (contract §23): it would refuse with 131204.
  if (approve && group.participants.length >= CHAT_GROUP_LIMITS.participants)
    throw errors.platformRefused(`A group has at most ${CHAT_GROUP_LIMITS.participants} participants`, [
      { field: 'request_id', message: `the group has ${CHAT_GROUP_LIMITS.participants} participants already (the platform's 131204)` },
    ]);
  const token = await accessTokenFor(ws);
  const done = await onPlatform(approve ? 'approve the join request' : 'reject the join request', () =>
    answerOnPlatform(platformId, token, joinRequestId, approve),
  );
  if (!done) throw errors.invalidState('The platform did not take the answer: the request may have been withdrawn');
  return changeChatGroup(group, (current) =>
    current.join_requests.some((request) => request.id === joinRequestId)
      ? { ...current, join_requests: current.join_requests.filter((request) => request.id !== joinRequestId) }
      : current,
  );
}

/** Deletes the group on the platform (every participant leaves it); it stays listed as `deleted`. */
export async function deleteChatGroup(ws: string, id: string): Promise<ChatGroup> {
  const { group, platformId } = await activeGroup(ws, id);
  const token = await accessTokenFor(ws);
  await onPlatform('delete the group', () => deletePlatformGroup(platformId, token));
  return changeChatGroup(group, (current) => (current.status === 'deleted' ? current : { ...current, status: 'deleted', participants: [], join_requests: [] }));
}
