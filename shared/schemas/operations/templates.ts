import { listTemplatesQuery } from '#shared/schemas/templates';
import type { ApiKeyOperation } from '#shared/schemas/operations/description';

export const ListTemplates = {
  tag: 'Templates',
  summary: "List the workspace's templates",
  description: 'As last synced from the platform (every 15 minutes, on demand, and when the platform reports a status change).',
  auth: 'apiKey',
  request: { query: listTemplatesQuery },
  success: [{ status: 200, data: 'template', list: 'all' }],
} satisfies ApiKeyOperation;

export const SyncTemplates = {
  tag: 'Templates',
  summary: 'Sync the templates from the platform now',
  auth: 'apiKey',
  request: {},
  success: [{ status: 200, data: 'templateSync' }],
  errors: ['platform_error'],
} satisfies ApiKeyOperation;
