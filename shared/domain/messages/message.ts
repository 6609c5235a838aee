import type { RenderedTemplate, TemplateParameters } from '#shared/domain/templates/parameters';
export const OUTBOUND_STATUSES = ['queued', 'sent', 'delivered', 'read', 'failed'] as const;
export const MESSAGE_STATUSES = [...OUTBOUND_STATUSES, 'received'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];
export type Direction = 'outbound' | 'inbound';

export interface MessageError {
  code: string | number;
  title: string;
}

export interface Message {
  id: string;
  workspace_id: string;
  phone_number: string;
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
  /** Inbound messages: the contact the sender was filed under. */
  contact_id?: string;
  provider_message_id: string | null;
  error: MessageError | null;
  metadata: { sent_at: string | null; delivered_at: string | null; read_at: string | null; failed_at: string | null };
  created_at: string;
  updated_at: string;
}

/** Status order: a report never moves a message backwards. `failed` is reached from queued or sent only. */
const RANK: Record<MessageStatus, number> = { queued: 0, sent: 1, delivered: 2, read: 3, failed: 4, received: 0 };

/** The status a report moves the message to, or null when it changes nothing. */
export function nextStatus(current: MessageStatus, reported: MessageStatus): MessageStatus | null {
  if (current === 'failed' || current === 'received') return null;
  if (reported === 'failed') return current === 'queued' || current === 'sent' ? 'failed' : null;
  return RANK[reported] > RANK[current] ? reported : null;
}

/** The 202 answer: the message was accepted as queued (a retried request may find it further along). */
export const createdView = (m: Message) => ({
  message_id: m.id,
  recipient: m.phone_number,
  status: 'queued' as const,
  message_type: m.message_type,
  template: m.template_name,
  language: m.language,
  created_at: m.created_at,
});

export const listView = (m: Message) => ({
  id: m.id,
  phone_number: m.phone_number,
  status: m.status,
  direction: m.direction,
  message_type: m.message_type,
  template_name: m.template_name,
  campaign_id: m.campaign_id,
  created_at: m.created_at,
});

export const detailView = (m: Message) => ({
  ...listView(m),
  language: m.language,
  content: m.content,
  template_parameters: m.template_parameters ?? null,
  rendered: m.rendered ?? null,
  provider_message_id: m.provider_message_id,
  error: m.error,
  metadata: m.metadata,
  updated_at: m.updated_at,
});
