/**
 * What the service posts to subscribed endpoints (contract §10, docs/webhooks.md §2): each event
 * type's envelope with its `data`, the shapes the API answers elsewhere. The API document lists
 * them as its `webhooks`.
 */
import * as v from 'valibot';
import type { EventType } from '#shared/events/event';
import { campaignResults } from '#shared/schemas/responses/campaigns';
import { chatGroup } from '#shared/schemas/responses/chat-groups';
import { call, callPermission } from '#shared/schemas/responses/calls';
import { recordId, timestamp } from '#shared/schemas/responses/common';
import { contact } from '#shared/schemas/responses/contacts';
import { message } from '#shared/schemas/responses/messages';
import { businessNumber } from '#shared/schemas/responses/numbers';
import { template } from '#shared/schemas/responses/templates';

interface EventDescription {
  summary: string;
  data: v.GenericSchema;
}

const receivedMessage = v.object({
  ...message.entries,
  contact_id: v.pipe(v.nullable(recordId()), v.description("The sender's contact, created or updated with the message")),
});

const messageReport = (report: string): EventDescription => ({
  summary: `The platform reported the message ${report} (each report once per message, even after a later status)`,
  data: message,
});

/** Every event type, what it announces and its `data`. */
export const EVENTS: Record<EventType, EventDescription> = {
  'message.received': { summary: "A customer's message arrived", data: receivedMessage },
  'message.sent': messageReport('sent'),
  'message.delivered': messageReport('delivered'),
  'message.read': messageReport('read'),
  'message.echoed': {
    summary: 'The business sent a message from the WhatsApp Business app on a number it shares with the API (stored, never sent by the service, no cost)',
    data: message,
  },
  'message.failed': { summary: 'A message failed: refused by the platform, or by the service (cancelled campaign, opted-out recipient)', data: message },
  'campaign.started': { summary: 'A campaign started sending (its counts are still zero)', data: campaignResults },
  'campaign.completed': { summary: 'Every message of a campaign reached a final status', data: campaignResults },
  'contact.created': { summary: 'A contact was created', data: contact },
  'contact.updated': { summary: 'A contact was written (an update, an upsert, an inbound message, an opt-out)', data: contact },
  'contact.deleted': { summary: 'A contact was deleted', data: v.object({ id: recordId(), phone_number: v.string() }) },
  'template.updated': { summary: 'A template changed as clients see it (a review verdict, a pause, a sync)', data: template },
  'number.updated': { summary: 'The platform re-rated a business number (quality, messaging limit, name)', data: businessNumber },
  'chat_group.created': { summary: 'The platform created a chat group (it is `active`, with its invite link), or refused to (`failed`)', data: chatGroup },
  'chat_group.updated': { summary: "A chat group's subject, description, invite link or suspension changed", data: chatGroup },
  'chat_group.participants_changed': { summary: 'Customers joined or left a chat group, or the business removed one', data: chatGroup },
  'chat_group.join_requested': { summary: 'A customer asked to join a chat group that needs approval', data: chatGroup },
  'chat_group.deleted': { summary: 'A chat group was deleted on the platform', data: chatGroup },
  'call.ringing': { summary: "A customer is calling: answer with the business's SDP (pre-accept, accept) or reject", data: call },
  'call.accepted': {
    summary: "A call connected: the business accepted a customer's call, or the customer answered the business's (with their SDP answer)",
    data: call,
  },
  'call.ended': { summary: 'A call is over (ended, missed, rejected or failed), with its duration and cost once the platform reported them', data: call },
  'call.permission_changed': { summary: 'A customer granted or refused the business permission to call them', data: callPermission },
  ping: { summary: 'A test of the endpoint (POST /api/v1/webhooks/{id}/test)', data: v.object({ webhook_id: recordId() }) },
};

/** The body of one event type's POST: the envelope every event shares, `type` and `data` its own. */
export const eventEnvelope = (type: EventType): v.GenericSchema =>
  v.object({
    id: v.pipe(recordId(), v.description('The event id, also the `webhook-id` header: the same on every retry, so receivers drop repeats')),
    type: v.literal(type),
    created_at: v.pipe(timestamp(), v.description('When the change was written (to the second)')),
    workspace_id: recordId(),
    data: EVENTS[type].data,
  });
