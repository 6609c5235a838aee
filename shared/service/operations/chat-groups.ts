/** WhatsApp groups run through the platform's Groups API (contract §23): every operation may call the platform with the workspace's token. */
import { http, type Operation } from '#shared/service/operation';

const onPlatform = { table: 'readWrite', platformSecrets: true, graphApi: true } as const;

export const chatGroupOperations: Operation[] = [
  { name: 'CreateChatGroup', handler: 'functions/chat-groups/create.ts', trigger: http('POST', '/api/v1/chat-groups'), access: onPlatform },
  { name: 'ListChatGroups', handler: 'functions/chat-groups/list.ts', trigger: http('GET', '/api/v1/chat-groups'), access: { table: 'readWrite' } },
  { name: 'GetChatGroup', handler: 'functions/chat-groups/get.ts', trigger: http('GET', '/api/v1/chat-groups/{id}'), access: { table: 'readWrite' } },
  {
    name: 'ResetChatGroupInviteLink',
    handler: 'functions/chat-groups/reset-invite-link.ts',
    trigger: http('POST', '/api/v1/chat-groups/{id}/invite-link'),
    access: onPlatform,
  },
  {
    name: 'ListChatGroupParticipants',
    handler: 'functions/chat-groups/list-participants.ts',
    trigger: http('GET', '/api/v1/chat-groups/{id}/participants'),
    access: { table: 'readWrite' },
  },
  {
    name: 'RemoveChatGroupParticipant',
    handler: 'functions/chat-groups/remove-participant.ts',
    trigger: http('DELETE', '/api/v1/chat-groups/{id}/participants/{wa_id}'),
    access: onPlatform,
  },
  {
    name: 'AnswerChatGroupJoinRequest',
    handler: 'functions/chat-groups/answer-join-request.ts',
    trigger: http('POST', '/api/v1/chat-groups/{id}/join-requests/{request_id}'),
    access: onPlatform,
  },
  { name: 'DeleteChatGroup', handler: 'functions/chat-groups/delete.ts', trigger: http('DELETE', '/api/v1/chat-groups/{id}'), access: onPlatform },
];
