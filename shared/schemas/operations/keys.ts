import { createKeyBody, revokeKeyQuery } from '#shared/schemas/keys';
import type { ApiKeyOperation } from '#shared/schemas/operations/description';

export const ListKeys = {
  tag: 'API keys',
  summary: "List the workspace's active keys",
  description: 'Masked: never the secret or its hash.',
  auth: 'apiKey',
  request: {},
  success: [{ status: 200, data: 'apiKey', list: 'all' }],
} satisfies ApiKeyOperation;

export const CreateKey = {
  tag: 'API keys',
  summary: 'Create a key',
  description: 'The answer carries the secret, shown only here.',
  auth: 'apiKey',
  request: { body: createKeyBody },
  success: [{ status: 201, data: 'createdApiKey' }],
} satisfies ApiKeyOperation;

export const RevokeKey = {
  tag: 'API keys',
  summary: 'Revoke a key',
  description: 'A revoked key is refused from the next request on. The workspace keeps at least one active key.',
  auth: 'apiKey',
  request: { query: revokeKeyQuery },
  success: [{ status: 200, data: 'revokedApiKey' }],
  errors: ['not_found', 'cannot_revoke_last_key'],
} satisfies ApiKeyOperation;
