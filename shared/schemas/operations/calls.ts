import { callingNumberParams, callingSettingsBody, listCallsQuery, permissionRequestBody, placeCallBody, sdpAnswerBody } from '#shared/schemas/calls';
import { idParams } from '#shared/schemas/common';
import type { ApiKeyOperation } from '#shared/schemas/operations/description';

const TAG = 'Calls';
const SDP = 'v=0\r\no=- 4611731400430051336 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\n';

export const GetCallingSettings = {
  tag: TAG,
  summary: "A number's calling settings",
  description: 'As the platform keeps them.',
  auth: 'apiKey',
  request: { params: callingNumberParams },
  success: [{ status: 200, data: 'callingSettings' }],
  errors: ['not_found', 'platform_error'],
  unprocessable: ['platform_error'],
} satisfies ApiKeyOperation;

export const UpdateCallingSettings = {
  tag: TAG,
  summary: "Change a number's calling settings",
  description:
    'Only the fields given change. The platform enables calling for numbers with a messaging limit of 2,000 or more; its refusal is 422 `platform_error`.',
  auth: 'apiKey',
  request: { params: callingNumberParams, body: callingSettingsBody },
  bodyExample: { enabled: true, callback_permission: true },
  success: [{ status: 200, data: 'callingSettings' }],
  errors: ['not_found', 'platform_error'],
  unprocessable: ['platform_error'],
} satisfies ApiKeyOperation;

export const RequestCallPermission = {
  tag: TAG,
  summary: 'Ask a customer for permission to call them',
  description:
    "Sends the platform's call permission request message (a free-form message: the customer must have written in the last 24 hours). Their answer arrives as `call.permission_changed`.",
  auth: 'apiKey',
  request: { body: permissionRequestBody },
  bodyExample: { to: '+1 415 555 0101', body: 'May we call you about order A-17?' },
  success: [{ status: 202, data: 'messageAccepted' }],
  errors: ['session_window_closed', 'unknown_number'],
  unprocessable: ['validation_error'],
} satisfies ApiKeyOperation;

export const PlaceCall = {
  tag: TAG,
  summary: 'Call a customer',
  description:
    "With the business's SDP offer; the customer must have granted permission (422 `call_permission_required` otherwise). The customer's SDP answer arrives with `call.accepted`.",
  auth: 'apiKey',
  request: { body: placeCallBody },
  bodyExample: { to: '+1 415 555 0101', sdp: SDP },
  success: [{ status: 201, data: 'call' }],
  errors: ['call_permission_required', 'unknown_number', 'platform_error'],
  unprocessable: ['platform_error'],
} satisfies ApiKeyOperation;

const answering = {
  tag: TAG,
  auth: 'apiKey',
  success: [{ status: 200, data: 'call' }],
  errors: ['not_found', 'invalid_state', 'platform_error'],
  unprocessable: ['platform_error'],
} as const;

export const PreAcceptCall = {
  ...answering,
  summary: "Pre-accept a customer's call",
  description: "Sends the business's SDP answer so media can start connecting before the call is accepted.",
  request: { params: idParams, body: sdpAnswerBody },
  bodyExample: { sdp: SDP },
} satisfies ApiKeyOperation;

export const AcceptCall = {
  ...answering,
  summary: "Accept a customer's call",
  description: "With the business's SDP answer; a call that is over is 409 `invalid_state`, nothing sent.",
  request: { params: idParams, body: sdpAnswerBody },
  bodyExample: { sdp: SDP },
} satisfies ApiKeyOperation;

export const RejectCall = {
  ...answering,
  summary: "Reject a customer's call",
  description: 'A call that is over is 409 `invalid_state`, nothing sent.',
  request: { params: idParams },
} satisfies ApiKeyOperation;

export const TerminateCall = {
  ...answering,
  summary: 'End a call',
  description: 'The call is `ended` when the platform reports its end, with its duration and cost (`call.ended`).',
  request: { params: idParams },
} satisfies ApiKeyOperation;

export const ListCalls = {
  tag: TAG,
  summary: 'The call log, newest first',
  auth: 'apiKey',
  request: { query: listCallsQuery },
  success: [{ status: 200, data: 'call', list: 'pages' }],
} satisfies ApiKeyOperation;

export const GetCall = {
  tag: TAG,
  summary: 'A call',
  auth: 'apiKey',
  request: { params: idParams },
  success: [{ status: 200, data: 'call' }],
  errors: ['not_found'],
} satisfies ApiKeyOperation;
