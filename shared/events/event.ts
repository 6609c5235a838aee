/** The event types of the specification (section 6), and the envelope every event carries. */
export const EVENT_TYPES = [
  'message.received',
  'message.sent',
  'message.delivered',
  'message.read',
  'message.failed',
  'message.echoed',
  'campaign.started',
  'campaign.completed',
  'contact.created',
  'contact.updated',
  'contact.deleted',
  'template.updated',
  'number.updated',
  'chat_group.created',
  'chat_group.updated',
  'chat_group.participants_changed',
  'chat_group.join_requested',
  'chat_group.deleted',
  'call.ringing',
  'call.accepted',
  'call.ended',
  'call.permission_changed',
  'ping',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export interface ServiceEvent {
  /** Stable: the same change always yields the same id (it is also the `webhook-id` of every delivery). */
  id: string;
  type: EventType;
  created_at: string;
  workspace_id: string;
  data: unknown;
}

/** The EventBridge `source` of the service's events. */
export const EVENT_SOURCE = 'messaging-api';
