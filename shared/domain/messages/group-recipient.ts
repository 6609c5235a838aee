/**
 * A send to a chat group (contract §23): the group must be active and not suspended, and the
 * message of a kind groups take (text, media, templates other than authentication: the platform's
 * list, docs/platform-groups.md §2); it goes out from the number that runs the group. Refused
 * before anything is stored or sent.
 */
import { errors } from '#shared/errors';
import { requireChatGroup } from '#shared/domain/chat-groups/chat-group';
import { senderOf, type Sender } from '#shared/domain/numbers/sender';
import type { Recipient } from '#shared/domain/messages/recipient';
import { SESSION_KINDS } from '#shared/domain/messages/kinds/names';
import type { Workspace } from '#shared/records/workspace';

export const GROUP_KINDS = ['template', 'text', 'image', 'video', 'audio', 'document', 'sticker'] as const;

export async function groupRecipient(
  workspace: Workspace,
  request: { to_group_id?: string; from?: string } & Partial<Record<(typeof SESSION_KINDS)[number], unknown>>,
): Promise<{ sender: Sender; recipient: Recipient }> {
  const kind = SESSION_KINDS.find((name) => request[name] !== undefined && !(GROUP_KINDS as readonly string[]).includes(name));
  if (kind)
    throw errors.refused('unsupported_for_groups', `A WhatsApp group does not take ${kind} messages`, [
      { field: kind, message: `groups take ${GROUP_KINDS.join(', ')}` },
    ]);
  const group = await requireChatGroup(workspace.id, request.to_group_id!, true);
  if (group.status !== 'active' || !group.platform_group_id) throw errors.invalidState(`The chat group is ${group.status}: it takes messages once active`);
  if (group.suspended) throw errors.invalidState('The platform suspended the chat group: it takes no messages');
  const sender = await senderOf(workspace, request.from ?? group.business_number_id);
  if (sender.id !== group.business_number_id)
    throw errors.validation([{ field: 'from', message: `the group is run by number ${group.business_number_id}; a group's messages go out from it` }]);
  return { sender, recipient: { phone: '', group: { id: group.id, platformId: group.platform_group_id } } };
}
