/**
 * The parts of a WhatsApp Cloud API webhook the service acts on, read defensively: it is outside
 * input. Shapes follow the platform's webhook reference (docs/platform-payloads.md); anything this
 * does not know becomes an `unsupported` message, never an error.
 */
import { dialableDigits } from '#shared/wa-id';
import { flowReplyOf } from '#shared/platform/flow-reply';
import { hexSha256 } from '#shared/platform/media-hash';
import { readCategoryUpdate, type TemplateCategoryUpdate } from '#shared/platform/template-category-update';
import type { ReportedPricing } from '#shared/records/pricing';

export const PLATFORM_STATUSES = ['sent', 'delivered', 'read', 'failed', 'played'] as const;
export type PlatformStatusName = (typeof PLATFORM_STATUSES)[number];

export interface PlatformError {
  code: number | string;
  title: string;
  subcode?: number;
  details?: string;
}

export interface PlatformStatus {
  phoneNumberId: string;
  providerMessageId: string;
  /** The customer's number (`recipient_id`, a WhatsApp id) as the service files numbers. */
  recipientPhone?: string;
  /** The customer's business-scoped user id (`recipient_user_id`); a status to a user id may have no `recipient_id`. */
  recipientUserId?: string;
  status: PlatformStatusName;
  at: string;
  callbackData?: string;
  error?: PlatformError;
  /** How the platform priced the message: on `sent` and one of `delivered`/`read` (docs/platform-requests.md §9.3). */
  pricing?: ReportedPricing;
}

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

/** `message_template_status_update`: a template's new status, for the business account in `entry[].id`. */
export interface TemplateStatusUpdate {
  wabaId: string;
  templateId: string | null;
  name: string;
  language: string;
  status: string;
  reason: string | null;
}

/**
 * `phone_number_quality_update`: the platform re-rated a number of the business account in
 * `entry[].id`, named by its display number (Meta, "phone_number_quality_update webhook reference").
 * `limit` is `max_daily_conversations_per_business`, else the older `current_limit`.
 */
export interface NumberQualityUpdate {
  wabaId: string;
  displayPhoneNumber: string;
  event: string;
  limit: string | null;
}

/**
 * `business_capability_update`: the business portfolio of the account in `entry[].id` has a new
 * messaging limit, `max_daily_conversations_per_business` (-1 unlimited; Meta,
 * "business_capability_update webhook reference").
 */
export interface PortfolioLimitUpdate {
  wabaId: string;
  limit: number;
}

export interface PlatformWebhook {
  statuses: PlatformStatus[];
  messages: PlatformInbound[];
  identityChanges: IdentityChange[];
  messageChanges: MessageChange[];
  templateUpdates: TemplateStatusUpdate[];
  categoryUpdates: TemplateCategoryUpdate[];
  qualityUpdates: NumberQualityUpdate[];
  limitUpdates: PortfolioLimitUpdate[];
}

type Json = Record<string, unknown>;
const object = (value: unknown): Json | undefined => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined);
const list = (value: unknown): Json[] => (Array.isArray(value) ? value.map(object).filter((v): v is Json => v !== undefined) : []);
const str = (value: unknown): string | undefined => (typeof value === 'string' && value ? value : undefined);
const num = (value: unknown): number | null => {
  const n = typeof value === 'string' && value.trim() ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
};
/** Latest time a Date can hold. */
const MAX_DATE_MS = 8.64e15;
/**
 * A platform timestamp (Unix seconds) as ISO-8601. A missing or impossible one becomes the epoch,
 * not the current time: inbound ids derive from the time, so a redelivery must get the same one.
 */
const time = (seconds: unknown): string => {
  const ms = Number(seconds) * 1000;
  return new Date(Number.isFinite(ms) && ms > 0 && ms < MAX_DATE_MS ? ms : 0).toISOString();
};
/** A WhatsApp id as the dialable digits the service files numbers under. */
const phoneOf = (value: unknown): string | null => {
  const digits = str(value)?.replace(/\D/g, '');
  return digits && digits.length >= 5 && digits.length <= 15 ? dialableDigits(digits) : null;
};

function errorOf(errors: unknown): PlatformError | undefined {
  const [error] = list(errors);
  if (!error) return undefined;
  const subcode = num(error.error_subcode);
  const details = str(object(error.error_data)?.details);
  return {
    code: (error.code as number | string) ?? 'unknown',
    title: str(error.title) ?? str(error.message) ?? 'Unknown error',
    ...(subcode !== null && { subcode }),
    ...(details && { details }),
  };
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
function kindOf(message: Json): Pick<PlatformInbound, 'type' | 'content' | 'fields' | 'reaction'> {
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

function readMessages(phoneNumberId: string, value: Json, into: PlatformWebhook): void {
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
    into.messages.push({ phoneNumberId, providerMessageId: id, sender, at, ...kindOf(message), repliedTo: str(object(message.context)?.id) });
  }
}

/** `pricing` as given, each field null when absent or not of its type: what it means is decided on pricing (docs/pricing.md). */
function pricingOf(value: unknown): ReportedPricing | undefined {
  const pricing = object(value);
  if (!pricing) return undefined;
  return {
    pricing_model: str(pricing.pricing_model) ?? null,
    category: str(pricing.category) ?? null,
    type: str(pricing.type) ?? null,
    billable: typeof pricing.billable === 'boolean' ? pricing.billable : null,
  };
}

function readStatuses(phoneNumberId: string, value: Json, into: PlatformWebhook): void {
  for (const status of list(value.statuses)) {
    const id = str(status.id);
    const name = str(status.status) as PlatformStatusName | undefined;
    if (!id || !name || !PLATFORM_STATUSES.includes(name)) continue;
    const error = errorOf(status.errors);
    const pricing = pricingOf(status.pricing);
    const recipientPhone = phoneOf(status.recipient_id);
    into.statuses.push({
      phoneNumberId,
      providerMessageId: id,
      status: name,
      at: time(status.timestamp),
      callbackData: str(status.biz_opaque_callback_data),
      ...(recipientPhone && { recipientPhone }),
      ...(str(status.recipient_user_id) && { recipientUserId: str(status.recipient_user_id) }),
      ...(error && { error }),
      ...(pricing && { pricing }),
    });
  }
}

function readTemplateUpdate(wabaId: string | undefined, value: Json, into: PlatformWebhook): void {
  const name = str(value.message_template_name);
  const language = str(value.message_template_language);
  const status = str(value.event);
  if (!wabaId || !name || !language || !status) return;
  const id = value.message_template_id;
  // Languages are written `en_US` in template lists but `en-US` in some of these events.
  into.templateUpdates.push({
    wabaId,
    templateId: typeof id === 'number' || typeof id === 'string' ? String(id) : null,
    name,
    language: language.replace('-', '_'),
    status: status.toUpperCase(),
    reason: str(value.reason) ?? null,
  });
}

export function readWebhook(payload: unknown): PlatformWebhook {
  const read: PlatformWebhook = {
    statuses: [],
    messages: [],
    identityChanges: [],
    messageChanges: [],
    templateUpdates: [],
    categoryUpdates: [],
    qualityUpdates: [],
    limitUpdates: [],
  };
  for (const entry of list(object(payload)?.entry)) {
    const entryId = str(entry.id) ?? (typeof entry.id === 'number' ? String(entry.id) : undefined);
    for (const change of list(entry.changes)) {
      const value = object(change.value) ?? {};
      if (change.field === 'message_template_status_update') {
        readTemplateUpdate(entryId, value, read);
        continue;
      }
      if (change.field === 'template_category_update') {
        const update = readCategoryUpdate(entryId, value);
        if (update) read.categoryUpdates.push(update);
        continue;
      }
      if (change.field === 'phone_number_quality_update') {
        const display = str(value.display_phone_number)?.replace(/\D/g, '');
        if (entryId && display) {
          const limit = str(value.max_daily_conversations_per_business) ?? str(value.current_limit) ?? null;
          read.qualityUpdates.push({ wabaId: entryId, displayPhoneNumber: display, event: str(value.event) ?? '', limit });
        }
        continue;
      }
      if (change.field === 'business_capability_update') {
        const limit = num(value.max_daily_conversations_per_business);
        if (entryId && limit !== null && Number.isInteger(limit)) read.limitUpdates.push({ wabaId: entryId, limit });
        continue;
      }
      const phoneNumberId = str(object(value.metadata)?.phone_number_id);
      if (!phoneNumberId) continue;
      readStatuses(phoneNumberId, value, read);
      readMessages(phoneNumberId, value, read);
    }
  }
  return read;
}
