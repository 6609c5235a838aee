import { listMessagesQuery, markReadBody, sendMessageBody } from '#shared/schemas/messages';
import { idParams } from '#shared/schemas/common';
import type { ApiKeyOperation } from '#shared/schemas/operations/description';

export const SendMessage = {
  tag: 'Messages',
  summary: 'Send a message',
  description:
    "Exactly one of `to` (a phone number), `to_user_id` (the business-scoped user id of a customer known by username; sent in the platform's `recipient`) and `to_group_id` (an active chat group: text, media and templates other than authentication only, else 422 `unsupported_for_groups`; sent from the number that runs the group, inside the group's window for session messages). Exactly one kind: `template` (with `variables`, `header`, `buttons`), or a session message (`text`, `image`, `video`, `audio`, `document`, `sticker`, `location`, `interactive`, `reaction`), which needs a customer message from that number in the last 24 hours. A flow (`interactive.type` `flow`) needs a `flow_token`, exactly one of `flow_id` and `flow_name`, and at most 64 KB of `data`: these rules across fields are answered 422 `validation_error`. The message is stored `queued` and sent asynchronously; follow it with GET /api/v1/messages/{id} or the `message.*` webhooks.",
  auth: 'apiKey',
  request: { body: sendMessageBody, idempotentAs: 'POST /api/v1/messages' },
  bodyExample: { to: '+1 415 555 0101', template: 'order_update', variables: ['Ada', 'A-17'] },
  success: [{ status: 202, data: 'messageAccepted' }],
  errors: [
    'template_not_found',
    'template_not_approved',
    'template_variables_mismatch',
    'session_window_closed',
    'recipient_opted_out',
    'market_not_allowed',
    'phone_number_required',
    'unsupported_for_groups',
    'unknown_number',
    'not_found',
    'invalid_state',
  ],
  unprocessable: ['validation_error'],
} satisfies ApiKeyOperation;

export const ListMessages = {
  tag: 'Messages',
  summary: 'List messages, newest first',
  description:
    '`pagination.totalCount` is exact for the filter (about 2 s behind new messages). `business_number_id` lists the messages of one number (for the first number, those from before several numbers too). `cursor` (from `pagination.nextCursor`) pages without offsets; with it, `page` is ignored.',
  auth: 'apiKey',
  request: { query: listMessagesQuery },
  success: [{ status: 200, data: 'messageListItem', list: 'cursor' }],
} satisfies ApiKeyOperation;

export const GetMessage = {
  tag: 'Messages',
  summary: 'Get a message',
  description: 'With its status times, the platform id, the error of a failed message, and the fields of its kind.',
  auth: 'apiKey',
  request: { params: idParams },
  success: [{ status: 200, data: 'message' }],
  errors: ['not_found'],
} satisfies ApiKeyOperation;

export const MarkMessageRead = {
  tag: 'Messages',
  summary: "Mark a customer's message read",
  description:
    'Marks an inbound message read on the platform (two blue ticks, for it and every earlier message of the chat), from the business number that received it; with `typing: true` the customer also sees the typing indicator until the reply or for 25 seconds. Our own (outbound) messages, and messages over 30 days old, are 422 `invalid_state`.',
  auth: 'apiKey',
  request: { params: idParams, body: markReadBody },
  success: [{ status: 200, data: 'messageRead' }],
  errors: ['not_found', 'invalid_state', 'platform_error'],
  unprocessable: ['invalid_state', 'platform_error'],
} satisfies ApiKeyOperation;
