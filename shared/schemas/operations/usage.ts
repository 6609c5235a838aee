import { usageQuery } from '#shared/schemas/usage';
import type { ApiKeyOperation } from '#shared/schemas/operations/description';

export const GetUsage = {
  tag: 'Usage',
  summary: "The workspace's API usage over the last days",
  description: 'Counts every authenticated /api/v1 request, failed ones and this one included (each once it completed).',
  auth: 'apiKey',
  request: { query: usageQuery },
  success: [{ status: 200, data: 'usageSummary' }],
} satisfies ApiKeyOperation;
