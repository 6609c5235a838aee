import { contactOfSender, moveContactIdentity } from '#shared/domain/contacts/lifecycle';
import { openWindow } from '#shared/domain/messages/window';
import { customerKey } from '#shared/domain/messages/recipient';
import { storedNumber } from '#shared/domain/numbers/numbers';
import { DEFAULT_STOP_WORDS, isStopWord } from '#shared/domain/messages/opt-out';
import { insertMessage, messageByPlatformId } from '#shared/data/message';
import { recordCustomerChange } from '#shared/data/message-status';
import { chatGroupByRef } from '#shared/data/chat-group';
import type { Message, MessageReference } from '#shared/records/message';
import type { Workspace } from '#shared/records/workspace';
import { stableId } from '#shared/ids';
import { nowIso } from '#shared/time';
import type { IdentityChange, MessageChange, PlatformInbound } from '#shared/platform/webhook-messages';

/** A message the customer refers to, ours when we know it; a reply to a campaign message carries its campaign. */
async function reference(ws: string, providerMessageId: string): Promise<MessageReference & { campaign_id: string | null }> {
  const ours = await messageByPlatformId(ws, providerMessageId);
  return { message_id: ours?.id ?? null, provider_message_id: providerMessageId, campaign_id: ours?.campaign_id ?? null };
}

/** A stop word as text, or a quick-reply button whose payload or text is one (contract §13); said in a chat group, it is said to the group. */
function optsOut(workspace: Workspace, inbound: PlatformInbound): boolean {
  if (inbound.groupId) return false;
  const words = workspace.stop_words ?? DEFAULT_STOP_WORDS;
  if (inbound.type === 'text') return isStopWord(inbound.content, words);
  if (inbound.type === 'button') return isStopWord(inbound.fields.button?.payload, words) || isStopWord(inbound.fields.button?.text, words);
  return false;
}

/**
 * A customer's message: files the sender as a contact (merging a number and a user id reported
 * together, opting them out on a stop word), opens the 24-hour window under the customer's key
 * (their number when any source knows it, else their user id: recipient.ts), links what it
 * replies or reacts to, and stores the message (`inbound`, `received`), in that order so a
 * visible message implies the rest. Every step is idempotent: a re-delivered webhook changes nothing.
 * A message in a chat group (contract §23) opens the group's window, not the participant's: the
 * platform's customer service window is then with the whole group (docs/platform-groups.md §6).
 */
export async function recordInbound(workspace: Workspace, inbound: PlatformInbound): Promise<Message> {
  const ws = workspace.id;
  const { phone, userId, profileName, username } = inbound.sender;
  const open = (key: string) => openWindow(workspace, inbound.phoneNumberId, key, inbound.at);
  const inGroup = inbound.groupId !== undefined;
  const group = inbound.groupId ? await chatGroupByRef(ws, 'platform', inbound.groupId) : undefined;
  // With the number in hand the window opens at once; without, under the contact's number if it has one.
  const [contact, context, reacted] = await Promise.all([
    contactOfSender(ws, { ...(phone && { phone }), ...(userId && { userId }) }, { profileName, optOut: optsOut(workspace, inbound) }),
    inbound.repliedTo ? reference(ws, inbound.repliedTo) : undefined,
    inbound.reaction ? reference(ws, inbound.reaction.providerMessageId) : undefined,
    phone && !inGroup ? open(phone) : undefined,
    group ? open(group.id) : undefined,
  ]);
  const customer = { phone: phone ?? contact.phone_number, ...(userId && { userId }) };
  if (!phone && !inGroup) await open(customerKey(customer));
  const replyCampaign = context?.campaign_id ?? reacted?.campaign_id;
  return insertMessage({
    id: stableId(`${ws}:${inbound.providerMessageId}`, Date.parse(inbound.at)),
    workspace_id: ws,
    phone_number: customer.phone,
    ...storedNumber(workspace, inbound.phoneNumberId),
    ...(userId && { user_id: userId }),
    ...(username && { username }),
    ...(group && { chat_group_id: group.id }),
    direction: 'inbound',
    status: 'received',
    message_type: inbound.type,
    template_name: null,
    language: null,
    content: inbound.content,
    template_parameters: null,
    rendered: null,
    ...inbound.fields,
    ...(context && { context: { message_id: context.message_id, provider_message_id: context.provider_message_id } }),
    ...(reacted &&
      inbound.reaction && { reaction: { emoji: inbound.reaction.emoji, message_id: reacted.message_id, provider_message_id: reacted.provider_message_id } }),
    campaign_id: null,
    ...(replyCampaign && { reply_campaign_id: replyCampaign }),
    contact_id: contact.id,
    provider_message_id: inbound.providerMessageId,
    error: null,
    metadata: { sent_at: null, delivered_at: null, read_at: null, failed_at: null },
    created_at: inbound.at,
    updated_at: nowIso(),
  });
}

/** The customer's new number or user id: their contact moves; no window opens (it is the platform speaking, not the customer). */
export const recordIdentityChange = (workspace: Workspace, change: IdentityChange): Promise<void> => moveContactIdentity(workspace.id, change);

/** An edit (new content) or deletion of a customer's earlier message; one we never stored changes nothing. */
export async function recordMessageChange(workspace: Workspace, change: MessageChange): Promise<void> {
  const original = await messageByPlatformId(workspace.id, change.originalProviderMessageId);
  if (!original) return;
  // A message deleted for everyone keeps nothing of what it said: no text, media (nor a link to its copy), place or cards.
  await recordCustomerChange(
    workspace.id,
    original.id,
    change.kind === 'edit'
      ? { edited_at: change.at, content: change.content ?? '' }
      : {
          revoked_at: change.at,
          content: '',
          media: null,
          location: null,
          contacts: null,
          interactive: null,
          button: null,
          flow_response: null,
        },
  );
}
