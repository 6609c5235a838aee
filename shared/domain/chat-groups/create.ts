/**
 * Creating a chat group (contract §23): the platform answers a request id at once and reports the
 * group (its id, its invite link) in a `group_lifecycle_update` webhook; until then the group is
 * `creating`. The platform's limits are checked first, with nothing sent.
 */
import { errors } from '#shared/errors';
import { dropChatGroup, insertChatGroup, recordCreationRequest } from '#shared/data/chat-group';
import { onPlatform } from '#shared/domain/platform-calls';
import { senderOf } from '#shared/domain/numbers/sender';
import { newId } from '#shared/ids';
import { accessTokenFor } from '#shared/platform/secrets';
import { requestGroupCreation } from '#shared/platform/chat-groups';
import { CHAT_GROUP_LIMITS, type ChatGroup, type JoinApprovalMode } from '#shared/records/chat-group';
import type { Workspace } from '#shared/records/workspace';
import { nowIso } from '#shared/time';

export interface NewChatGroup {
  from?: string;
  subject: string;
  description?: string | null;
  join_approval_mode?: JoinApprovalMode;
}

export async function createChatGroup(workspace: Workspace, request: NewChatGroup): Promise<ChatGroup> {
  const sender = await senderOf(workspace, request.from);
  const now = nowIso();
  const group: ChatGroup = {
    id: newId(),
    workspace_id: workspace.id,
    business_number_id: sender.id,
    subject: request.subject.trim(),
    description: request.description ?? null,
    join_approval_mode: request.join_approval_mode ?? 'auto_approve',
    status: 'creating',
    suspended: false,
    platform_group_id: null,
    request_id: null,
    invite_link: null,
    participants: [],
    join_requests: [],
    error: null,
    created_at: now,
    updated_at: now,
  };
  // Stored first: the number's place is taken in the same write, so the platform is never asked for a 10,001st group.
  const stored = await insertChatGroup(group);
  if (!stored)
    throw errors.platformRefused(`A number runs at most ${CHAT_GROUP_LIMITS.groupsPerNumber} groups on the platform`, [
      { field: 'from', message: `this number already has ${CHAT_GROUP_LIMITS.groupsPerNumber} groups (the platform's 131211)` },
    ]);
  try {
    const token = await accessTokenFor(workspace.id);
    const requestId = await onPlatform('create the group', () => requestGroupCreation(sender.id, token, group));
    return await recordCreationRequest(stored, requestId);
  } catch (error) {
    await dropChatGroup(stored);
    throw error;
  }
}
