import { listMessagesQuery, sendMessageBody } from '#shared/schemas/messages';
import { idParams } from '#shared/schemas/common';
import type { ApiKeyOperation } from '#shared/schemas/operations/description';

export const SendMessage = {
  tag: 'Messages',
  summary: 'Send a message',
  description:
    "Exactly one of `to` (a phone number) and `to_user_id` (the business-scoped user id of a customer known by username; sent in the platform's `recipient`). Exactly one kind: `template` (with `variables`, `header`, `buttons`), or a session message (`text`, `image`, `video`, `audio`, `document`, `sticker`, `location`, `interactive`, `reaction`), which needs a customer message from that number in the last 24 hours. The message is stored `queued` and sent asynchronously; follow it with GET /api/v1/messages/{id} or the `message.*` webhooks.",
  auth: 'apiKey',
  request: { body: sendMessageBody, idempotentAs: 'POST /api/v1/messages' },
  success: [{ status: 202, data: 'messageAccepted' }],
  errors: [
    'template_not_found',
    'template_not_approved',
    'template_variables_mismatch',
    'session_window_closed',
    'recipient_opted_out',
    'market_not_allowed',
    'phone_number_required',
    'unknown_number',
    'not_found',
    'invalid_state',
  ],
} satisfies ApiKeyOperation;

export const ListMessages = {
  tag: 'Messages',
  summary: 'List messages, newest first',
  description:
    '`pagination.totalCount` is exact for the filter (about 2 s behind new messages). `cursor` (from `pagination.nextCursor`) pages without offsets; with it, `page` is ignored.',
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
