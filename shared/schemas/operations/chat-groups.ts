import { createChatGroupBody, joinRequestAnswerBody, joinRequestParams, listChatGroupsQuery, participantParams } from '#shared/schemas/chat-groups';
import { idParams } from '#shared/schemas/common';
import type { ApiKeyOperation } from '#shared/schemas/operations/description';

const TAG = 'Chat groups';

export const CreateChatGroup = {
  tag: TAG,
  summary: 'Create a WhatsApp group',
  description:
    "The platform's Groups API creates it asynchronously: the group is `creating` until the platform reports it, then `active` with its `invite_link` (event `chat_group.created`). A number runs at most 10,000 groups.",
  auth: 'apiKey',
  request: { body: createChatGroupBody },
  bodyExample: { subject: 'Spring order support', description: 'Questions about your spring order', join_approval_mode: 'approval_required' },
  success: [{ status: 202, data: 'chatGroup' }],
  errors: ['unknown_number', 'platform_error'],
  unprocessable: ['platform_error'],
} satisfies ApiKeyOperation;

export const ListChatGroups = {
  tag: TAG,
  summary: 'List WhatsApp groups, newest first',
  auth: 'apiKey',
  request: { query: listChatGroupsQuery },
  success: [{ status: 200, data: 'chatGroup', list: 'pages' }],
} satisfies ApiKeyOperation;

export const GetChatGroup = {
  tag: TAG,
  summary: 'Get a WhatsApp group',
  auth: 'apiKey',
  request: { params: idParams },
  success: [{ status: 200, data: 'chatGroup' }],
  errors: ['not_found'],
} satisfies ApiKeyOperation;

export const ResetChatGroupInviteLink = {
  tag: TAG,
  summary: "Reset a group's invite link",
  description: 'Every earlier link stops working.',
  auth: 'apiKey',
  request: { params: idParams },
  success: [{ status: 200, data: 'chatGroup' }],
  errors: ['not_found', 'invalid_state', 'platform_error'],
  unprocessable: ['platform_error'],
} satisfies ApiKeyOperation;

export const ListChatGroupParticipants = {
  tag: TAG,
  summary: "List a group's participants (the business is not one)",
  auth: 'apiKey',
  request: { params: idParams },
  success: [{ status: 200, data: 'chatGroupParticipant', list: 'all' }],
  errors: ['not_found'],
} satisfies ApiKeyOperation;

export const RemoveChatGroupParticipant = {
  tag: TAG,
  summary: 'Remove a participant from a group',
  description:
    'Named by number or user id. The platform removes them and reports it; they leave `participants` then (event `chat_group.participants_changed`).',
  auth: 'apiKey',
  request: { params: participantParams },
  success: [{ status: 202, data: 'chatGroup' }],
  errors: ['not_found', 'invalid_state', 'platform_error'],
  unprocessable: ['platform_error'],
} satisfies ApiKeyOperation;

export const AnswerChatGroupJoinRequest = {
  tag: TAG,
  summary: 'Approve or reject a request to join a group',
  description: 'An approved customer joins when the platform reports it (event `chat_group.participants_changed`).',
  auth: 'apiKey',
  request: { params: joinRequestParams, body: joinRequestAnswerBody },
  bodyExample: { approve: true },
  success: [{ status: 200, data: 'chatGroup' }],
  errors: ['not_found', 'invalid_state', 'platform_error'],
  unprocessable: ['platform_error'],
} satisfies ApiKeyOperation;

export const DeleteChatGroup = {
  tag: TAG,
  summary: 'Delete a WhatsApp group',
  description: 'The platform removes every participant; the group stays listed as `deleted` (event `chat_group.deleted`).',
  auth: 'apiKey',
  request: { params: idParams },
  success: [{ status: 200, data: 'chatGroup' }],
  errors: ['not_found', 'invalid_state', 'platform_error'],
  unprocessable: ['platform_error'],
} satisfies ApiKeyOperation;
