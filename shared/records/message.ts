/** A message as the service keeps it (contract §13): its statuses, kinds and fields. */
// The stored shapes of template parameters are still defined beside their rules; a type-only import (erased from bundles).
import type { RenderedTemplate, TemplateParameters } from '#shared/records/template-parameters';
import type { MessageCost, ReportedPricing } from '#shared/records/pricing';

export const OUTBOUND_STATUSES = ['queued', 'sent', 'delivered', 'read', 'failed'] as const;
export const MESSAGE_STATUSES = [...OUTBOUND_STATUSES, 'received'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];
export type Direction = 'outbound' | 'inbound';

export interface MessageError {
  code: string | number;
  title: string;
  /** The platform's further detail, when it gave one. */
  subcode?: number;
  details?: string;
}

/**
 * A message's media. Outbound: what was given (`link` or `media_id`, `caption`, `filename`).
 * Inbound: the platform's metadata, and `stored_key` once the copy is in the media bucket
 * (`download_error` when the copy was given up).
 */
export interface MessageMedia {
  media_id: string | null;
  link: string | null;
  mime_type: string | null;
  sha256: string | null;
  caption: string | null;
  filename: string | null;
  size: number | null;
  stored_key?: string;
  download_error?: string;
}

export interface MessageLocation {
  latitude: number;
  longitude: number;
  name: string | null;
  address: string | null;
}

/** A message this one refers to: ours when we know it, always the platform's id. */
export interface MessageReference {
  message_id: string | null;
  provider_message_id: string;
}

/** The kind-specific fields of contract §13, on both directions (null or absent when they do not apply). */
export interface KindFields {
  media?: MessageMedia | null;
  location?: MessageLocation | null;
  /** Outbound: the interactive message as sent. Inbound: the customer's choice `{ type, id, title, description }`. */
  interactive?: Record<string, unknown> | null;
  /** Inbound: a tapped quick-reply button of a template. */
  button?: { text: string; payload: string | null } | null;
  reaction?: { emoji: string; message_id: string | null; provider_message_id: string } | null;
  /** Inbound: shared contact cards, as the platform sent them. */
  contacts?: unknown[] | null;
  /** Inbound flow answers (`nfm_reply`): its `response_json` parsed, null when it could not be kept (contract §21). */
  flow_response?: unknown;
  /** The message replied to. */
  context?: MessageReference | null;
}

export interface Message extends KindFields {
  id: string;
  workspace_id: string;
  phone_number: string;
  /** The workspace's number it went out from or came in to (contract §17); absent on a message from before several numbers: the first number. */
  business_number_id?: string;
  direction: Direction;
  status: MessageStatus;
  message_type: string;
  template_name: string | null;
  language: string | null;
  content: string;
  /** Template messages: the parameters as accepted and the rendered template; the send worker builds the platform's components from them. */
  template_parameters: TemplateParameters | null;
  rendered: RenderedTemplate | null;
  campaign_id: string | null;
  /**
   * Inbound replies and reactions to a campaign message: that campaign. Shown as `campaign_id`, but
   * kept apart from it so the campaign's message list and counts stay its own outbound messages.
   */
  reply_campaign_id?: string;
  /** A campaign's test send (contract §15): the campaign it shows, kept apart from `campaign_id` so the campaign never counts it. */
  test_of_campaign?: string;
  /** A campaign's retry of a failed message (contract §15): that message. */
  retry_of?: string;
  /** The error code of the message it retries: the campaign's metrics move that failure to this message (shared/domain/outbox/counts.ts). */
  retry_of_code?: string | number;
  /** A campaign message to a contact with a time zone of its own: the send window is read in it (contract §15). */
  time_zone?: string;
  /** A campaign message held until its send window opens then (contract §15); the window's resume hands it on. Kept once sent on: its pace and pause limits count from it. */
  window_opens_at?: string;
  /** A campaign message with a budget: the estimate its send reserved (integer ten-thousandths), set once under its claim (docs/pricing.md §6). */
  budget_reserved?: number;
  /** Outbound: platform calls made so far (the send worker's count, shown as `metadata.send_attempts`). */
  attempts?: number;
  /** Inbound messages: the contact the sender was filed under. */
  contact_id?: string;
  provider_message_id: string | null;
  /** Inbound: the customer edited or deleted the message (the platform's `edit` and `revoke`). */
  edited_at?: string;
  revoked_at?: string;
  /**
   * The customer's business-scoped user id (contract §21): inbound, as the platform reported it;
   * outbound, the `to_user_id` it was sent to. `phone_number` is empty while the number is unknown.
   */
  user_id?: string;
  /** Inbound: the customer's WhatsApp username, when they adopted one. */
  username?: string;
  /**
   * Where a message came from when not from the API or a customer writing now (contract §23):
   * `business_app`, sent from the WhatsApp Business app on a coexistence number (an echo, never sent
   * by the service); `history`, imported from the app's chats before onboarding.
   */
  source?: 'business_app' | 'history';
  /** A message to or from a chat group (contract §23): the group; `phone_number` is then the participant who wrote (inbound), empty outbound. */
  chat_group_id?: string;
  /** Outbound to a chat group: the platform's group id it is sent to. */
  platform_group_id?: string;
  error: MessageError | null;
  /** Outbound: how the platform priced it, from the first status report that said (contract §20); absent until then. */
  pricing?: ReportedPricing;
  /** What it cost by the workspace's rate card, set with `pricing`; null when that pricing cannot be priced (docs/pricing.md). */
  cost?: MessageCost | null;
  /** `played_at`: a voice message was played (the platform's `played` status), set once and never a status of its own. */
  metadata: { sent_at: string | null; delivered_at: string | null; read_at: string | null; failed_at: string | null; played_at?: string };
  created_at: string;
  updated_at: string;
}
