import { connectNumberBody, numberParams, updateNumberBody } from '#shared/schemas/numbers';
import type { ApiKeyOperation } from '#shared/schemas/operations/description';

export const ListNumbers = {
  tag: 'Numbers',
  summary: "List the workspace's business numbers",
  description: 'The default number first. `paused` while an account-level platform error pauses its sending (contract §16).',
  auth: 'apiKey',
  request: {},
  success: [{ status: 200, data: 'businessNumber', list: 'all' }],
} satisfies ApiKeyOperation;

export const ConnectNumber = {
  tag: 'Numbers',
  summary: 'Connect a business number',
  description:
    "Checks that the platform lists the number in the named business account (with the workspace's own token; the deployment's shared token only for an account the operator connected for the workspace), reads the number, claims the account and subscribes the app to its webhooks. A business account and each of its numbers belong to at most one workspace. The first number is the default.",
  auth: 'apiKey',
  request: { body: connectNumberBody },
  success: [{ status: 201, data: 'businessNumber' }],
  errors: ['number_in_use', 'account_in_use', 'number_not_in_account', 'invalid_state', 'platform_error'],
  unprocessable: ['platform_error'],
} satisfies ApiKeyOperation;

export const UpdateNumber = {
  tag: 'Numbers',
  summary: 'Make a number the default',
  description: 'Sends without `from` go out from the default number.',
  auth: 'apiKey',
  request: { params: numberParams, body: updateNumberBody },
  success: [{ status: 200, data: 'businessNumber' }],
  errors: ['not_found'],
} satisfies ApiKeyOperation;

export const DisconnectNumber = {
  tag: 'Numbers',
  summary: 'Disconnect a number',
  description: 'Its messages stay. Not the only number, not the default, nor one a running campaign sends from (409 `invalid_state`).',
  auth: 'apiKey',
  request: { params: numberParams },
  success: [{ status: 200, data: 'numberDisconnected' }],
  errors: ['not_found', 'invalid_state'],
} satisfies ApiKeyOperation;
