/**
 * A chat group's rules shared by its operations (contract §23): the view clients see, the read
 * that refuses a group of no such id, and the write that re-reads and decides again when another
 * write came first (the platform's webhooks and the API change the same item).
 */
import { errors } from '#shared/errors';
import { getChatGroup, replaceChatGroup } from '#shared/data/chat-group';
import type { ChatGroup } from '#shared/records/chat-group';
import { nowIso } from '#shared/time';

const MAX_ATTEMPTS = 8;

/** A group as `GET /api/v1/chat-groups/{id}` shows it: `from` is the number that runs it. */
export const chatGroupView = (group: ChatGroup) => ({
  id: group.id,
  from: group.business_number_id,
  subject: group.subject,
  description: group.description,
  join_approval_mode: group.join_approval_mode,
  status: group.status,
  suspended: group.suspended,
  invite_link: group.invite_link,
  participants_count: group.participants.length,
  join_requests: group.join_requests,
  platform_group_id: group.platform_group_id,
  error: group.error,
  created_at: group.created_at,
  updated_at: group.updated_at,
});

export async function requireChatGroup(ws: string, id: string, consistent = false): Promise<ChatGroup & { version: number }> {
  const group = await getChatGroup(ws, id, consistent);
  if (!group) throw errors.notFound('Chat group');
  return group;
}

/**
 * Applies `change` to the group as it stands, retrying on a concurrent write; `change` returns
 * the group unchanged (the same object) when there is nothing to do. Returns the group as written.
 */
export async function changeChatGroup(
  current: ChatGroup & { version: number },
  change: (group: ChatGroup) => ChatGroup,
): Promise<ChatGroup & { version: number }> {
  let group = current;
  for (let attempt = 1; ; attempt++) {
    const next = change(group);
    if (next === group) return group;
    const written = { ...next, updated_at: nowIso() };
    if (await replaceChatGroup(group, written)) return { ...written, version: group.version + 1 };
    if (attempt === MAX_ATTEMPTS) throw errors.invalidState('The chat group is changing concurrently; try again');
    group = await requireChatGroup(current.workspace_id, current.id, true);
  }
}
