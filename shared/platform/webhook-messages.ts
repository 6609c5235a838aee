/**
 * The customers' messages (`messages`): each one's sender, kind and content, or the change it
 * reports (an edit, a deletion, a new number or user id). Anything this does not know becomes an
 * `unsupported` message.
 */
import { readPermissionReply, type CallPermissionReply } from '#shared/platform/call-webhooks';
import { flowReplyOf } from '#shared/platform/flow-reply';
import { hexSha256 } from '#shared/platform/media-hash';
import { list, num, object, phoneOf, str, time, type Json } from '#shared/platform/webhook-values';

/** Who wrote: the dialable number when the platform gave one, and its business-scoped user id when it gave that. */
export interface Sender {
  phone: string | null;
  userId: string | null;
  profileName?: string;
  /** The customer's WhatsApp username, when they adopted one (`contacts[].profile.username`). */
  username?: string;
}

/** A customer's media as the platform describes it; the message keeps it as its `media` (contract §13). */
export interface InboundMedia {
  media_id: string | null;
  link: null;
  mime_type: string | null;
  sha256: string | null;
  caption: string | null;
  filename: string | null;
  size: number | null;
}

/** The kind's own field of a customer's message (contract §13), kept on the message as it is read here. */
export interface InboundFields {
  media?: InboundMedia;
  location?: { latitude: number; longitude: number; name: string | null; address: string | null };
  /** The customer's choice on an interactive message. */
  interactive?: { type: string; id: string | null; title: string | null; description: string | null };
  /** A tapped quick-reply button of a template. */
  button?: { text: string; payload: string | null };
  /** Shared contact cards, as the platform sent them. */
  contacts?: unknown[];
  /** A flow's answers (`nfm_reply`), parsed; null when they are not JSON the message can keep. */
  flow_response?: unknown;
}

/** A customer's message. Its kind's own field refers to other messages by their platform ids only. */
export interface PlatformInbound {
  phoneNumberId: string;
  providerMessageId: string;
  sender: Sender;
  at: string;
  /** The platform's type, or `unsupported` for one the service does not know. */
  type: string;
  content: string;
  fields: InboundFields;
  /** The platform id of the message replied to. */
  repliedTo?: string;
  reaction?: { emoji: string; providerMessageId: string };
  /** A message written in a chat group: the platform's group id (`messages[].group_id`, docs/platform-groups.md §4); the sender is the participant. */
  groupId?: string;
}

/**
 * The customer's new number, new business-scoped user id, or both (a `system` message): the contact
 * moves to them. `user_changed_number` names the old number in `from` and the new one in
 * `system.wa_id`; a number change also regenerates the user id, so it carries the new one in
 * `system.user_id` and, since Aug 2026, the old one in `system.previous_user_id`.
 * `user_changed_user_id` reports a new user id alone, with no number (the May 2026 syntax named the
 * old id only in `system.body`). Sources: Meta's "System messages webhook reference" and changelog
 * (Aug 11, 2026) and "Business-scoped user IDs" (May 2026); docs/platform-payloads.md.
 */
export interface IdentityChange {
  phoneNumberId: string;
  at: string;
  number?: { from: string; to: string };
  /** `from` is null when the platform named no old id: the contact is then the old number's. */
  userId?: { from: string | null; to: string };
}

/** The customer edited (new content) or deleted an earlier message. */
export interface MessageChange {
  phoneNumberId: string;
  originalProviderMessageId: string;
  at: string;
  kind: 'edit' | 'revoke';
  /** Edits: the new text or caption. */
  content?: string;
}

const MEDIA_TYPES = new Set(['image', 'video', 'audio', 'document', 'sticker']);
const KNOWN_TYPES = new Set(['text', ...MEDIA_TYPES, 'location', 'contacts', 'interactive', 'button', 'reaction']);

function mediaOf(value: Json | undefined): InboundMedia {
  const sha256 = str(value?.sha256);
  return {
    media_id: str(value?.id) ?? null,
    link: null,
    mime_type: str(value?.mime_type) ?? null,
    sha256: sha256 ? hexSha256(sha256) : null,
    caption: str(value?.caption) ?? null,
    filename: str(value?.filename) ?? null,
    size: num(value?.file_size),
  };
}

/** The customer's choice on an interactive message: a reply button or a list row. */
function interactiveOf(value: Json | undefined) {
  const type = str(value?.type) ?? 'unknown';
  const choice = object(value?.[type]);
  return { type, id: str(choice?.id) ?? null, title: str(choice?.title) ?? null, description: str(choice?.description) ?? null };
}

/** `content` and the kind's own field (contract §13); an unknown or malformed kind is `unsupported`. */
export function kindOf(message: Json): Pick<PlatformInbound, 'type' | 'content' | 'fields' | 'reaction'> {
  const type = str(message.type) ?? 'unsupported';
  const body = object(message[type]);
  if (!KNOWN_TYPES.has(type) || (type !== 'contacts' && !body)) return { type: 'unsupported', content: '', fields: {} };
  if (type === 'text') return { type, content: str(body!.body) ?? '', fields: {} };
  if (MEDIA_TYPES.has(type)) {
    const media = mediaOf(body);
    return { type, content: media.caption ?? '', fields: { media } };
  }
  if (type === 'location') {
    const latitude = num(body!.latitude);
    const longitude = num(body!.longitude);
    if (latitude === null || longitude === null) return { type: 'unsupported', content: '', fields: {} };
    const location = { latitude, longitude, name: str(body!.name) ?? null, address: str(body!.address) ?? null };
    return { type, content: [location.name, location.address].filter(Boolean).join(', '), fields: { location } };
  }
  if (type === 'contacts') return { type, content: '', fields: { contacts: Array.isArray(message.contacts) ? message.contacts : [] } };
  if (type === 'interactive' && body!.type === 'nfm_reply') {
    const { content, interactive, flow_response } = flowReplyOf(object(body!.nfm_reply));
    return { type, content, fields: { interactive, flow_response } };
  }
  if (type === 'interactive') {
    const interactive = interactiveOf(body);
    return { type, content: interactive.title ?? '', fields: { interactive } };
  }
  if (type === 'button') {
    const button = { text: str(body!.text) ?? '', payload: str(body!.payload) ?? null };
    return { type, content: button.text, fields: { button } };
  }
  // A reaction; without an emoji it takes the customer's reaction back.
  const target = str(body!.message_id);
  if (!target) return { type: 'unsupported', content: '', fields: {} };
  const emoji = typeof body!.emoji === 'string' ? body!.emoji : '';
  return { type, content: emoji, fields: {}, reaction: { emoji, providerMessageId: target } };
}

/** The sender of a message: `from` (a WhatsApp id) and, for accounts known by username, `from_user_id`. */
function senderOf(message: Json, contacts: Json[]): Sender {
  const phone = phoneOf(message.from);
  const userId = str(message.from_user_id) ?? null;
  const contact =
    contacts.find((c) => (phone && phoneOf(c.wa_id) === phone) || (userId && str(c.user_id) === userId)) ?? (contacts.length === 1 ? contacts[0] : undefined);
  return {
    phone,
    userId: userId ?? str(contact?.user_id) ?? null,
    profileName: str(object(contact?.profile)?.name) ?? str(object(contact?.profile)?.username),
    username: str(object(contact?.profile)?.username),
  };
}

/** `User <name> changed from <old> to <new>`: the body names the old user id where `previous_user_id` is missing (Meta's May 2026 syntax). */
const CHANGED_FROM_TO = /changed from (\S+) to (\S+)\s*$/;

/** The old user id: `previous_user_id`, else the body's `from`, read only when its `to` is the new user id (since Aug 2026 the body may name numbers). */
function previousUserIdOf(system: Json | undefined, newUserId: string | undefined): string | null {
  const named = str(system?.previous_user_id);
  if (named) return named;
  const [, from, to] = CHANGED_FROM_TO.exec(str(system?.body) ?? '') ?? [];
  return newUserId && to === newUserId ? from : null;
}

/** The `system` messages that move a customer: a new number (`customer_changed_number` in older API versions), a new user id. */
const IDENTITY_CHANGES = new Set(['user_changed_number', 'customer_changed_number', 'user_changed_user_id']);

/** What a `system` message changed: the number (old in `from`, new in `wa_id`, or `new_wa_id` before v12), the user id, or both; undefined when it names nothing to move. */
function identityChangeOf(system: Json | undefined, oldPhone: string | null): Pick<IdentityChange, 'number' | 'userId'> | undefined {
  if (!IDENTITY_CHANGES.has(str(system?.type) ?? '')) return undefined;
  const newPhone = phoneOf(system?.wa_id) ?? phoneOf(system?.new_wa_id);
  const newUserId = str(system?.user_id);
  const oldUserId = previousUserIdOf(system, newUserId);
  const number = oldPhone && newPhone && newPhone !== oldPhone ? { from: oldPhone, to: newPhone } : undefined;
  // The contact is found by the old number or the old user id: without either there is nothing to move.
  const userId = newUserId && newUserId !== oldUserId && (oldUserId || oldPhone) ? { from: oldUserId, to: newUserId } : undefined;
  return number || userId ? { ...(number && { number }), ...(userId && { userId }) } : undefined;
}

/** The number a customer shared by tapping a contact information request (`origin: contact_request`): their own card's first WhatsApp id. */
function sharedNumberOf(message: Json): string | null {
  const card = list(message.contacts).find((contact) => contact.origin === 'contact_request');
  return card
    ? (list(card.phones)
        .map((phone) => phoneOf(phone.wa_id))
        .find(Boolean) ?? null)
    : null;
}

/** What a webhook's `messages` hold: the customers' messages, the changes of identity and of earlier messages they report, and answers to call permission requests. */
export interface WebhookMessages {
  messages: PlatformInbound[];
  identityChanges: IdentityChange[];
  messageChanges: MessageChange[];
  permissionReplies: CallPermissionReply[];
}

export function readMessages(phoneNumberId: string, value: Json, into: WebhookMessages): void {
  const contacts = list(value.contacts);
  for (const message of list(value.messages)) {
    const id = str(message.id);
    if (!id) continue;
    const at = time(message.timestamp);
    const sender = senderOf(message, contacts);
    const type = str(message.type);
    if (type === 'system') {
      const change = identityChangeOf(object(message.system), sender.phone);
      if (change) into.identityChanges.push({ phoneNumberId, at, ...change });
      continue;
    }
    if (type === 'edit' || type === 'revoke') {
      const change = object(message[type]);
      const original = str(change?.original_message_id);
      if (!original) continue;
      const edited = type === 'edit' ? object(change?.message) : undefined;
      into.messageChanges.push({ phoneNumberId, originalProviderMessageId: original, at, kind: type, ...(edited && { content: kindOf(edited).content }) });
      continue;
    }
    if (!sender.phone && !sender.userId) continue;
    // A customer known by user id who shares their number through a `request_contact_info` (docs/platform-identity.md §4): the number and the id come together.
    const shared = !sender.phone && type === 'contacts' ? sharedNumberOf(message) : null;
    if (shared) sender.phone = shared;
    const permission = type === 'interactive' && readPermissionReply(message, phoneNumberId, { phone: sender.phone ?? null, userId: sender.userId ?? null });
    if (permission) into.permissionReplies.push(permission);
    const groupId = str(message.group_id);
    into.messages.push({
      phoneNumberId,
      providerMessageId: id,
      sender,
      at,
      ...kindOf(message),
      repliedTo: str(object(message.context)?.id),
      ...(groupId && { groupId }),
    });
  }
}
