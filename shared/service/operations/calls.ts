/** WhatsApp calls through the platform's Calling API (contract §23): the operations that act on the platform use the workspace's token. */
import { http, type Operation } from '#shared/service/operation';

const onPlatform = { table: 'readWrite', platformSecrets: true, graphApi: true } as const;

export const callOperations: Operation[] = [
  { name: 'GetCallingSettings', handler: 'functions/calls/get-settings.ts', trigger: http('GET', '/api/v1/numbers/{id}/calling'), access: onPlatform },
  { name: 'UpdateCallingSettings', handler: 'functions/calls/update-settings.ts', trigger: http('PATCH', '/api/v1/numbers/{id}/calling'), access: onPlatform },
  // The request is a message: stored `queued` and sent by the send worker, as any message (`from` may read the numbers' details from the platform).
  {
    name: 'RequestCallPermission',
    handler: 'functions/calls/request-permission.ts',
    trigger: http('POST', '/api/v1/calls/permission-requests'),
    access: onPlatform,
  },
  { name: 'PlaceCall', handler: 'functions/calls/place.ts', trigger: http('POST', '/api/v1/calls'), access: onPlatform },
  { name: 'PreAcceptCall', handler: 'functions/calls/pre-accept.ts', trigger: http('POST', '/api/v1/calls/{id}/pre-accept'), access: onPlatform },
  { name: 'AcceptCall', handler: 'functions/calls/accept.ts', trigger: http('POST', '/api/v1/calls/{id}/accept'), access: onPlatform },
  { name: 'RejectCall', handler: 'functions/calls/reject.ts', trigger: http('POST', '/api/v1/calls/{id}/reject'), access: onPlatform },
  { name: 'TerminateCall', handler: 'functions/calls/terminate.ts', trigger: http('POST', '/api/v1/calls/{id}/terminate'), access: onPlatform },
  { name: 'ListCalls', handler: 'functions/calls/list.ts', trigger: http('GET', '/api/v1/calls'), access: { table: 'readWrite' } },
  { name: 'GetCall', handler: 'functions/calls/get.ts', trigger: http('GET', '/api/v1/calls/{id}'), access: { table: 'readWrite' } },
];
