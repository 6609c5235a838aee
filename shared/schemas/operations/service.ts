import type { PublicOperation } from '#shared/schemas/operations/description';

export const Health = {
  tag: 'Service',
  summary: 'Whether the service is up',
  description: 'Locally, `npm start` answers 503 `{"status":"starting"}` until its whole stack is up.',
  auth: 'none',
  success: [{ status: 200, data: 'health' }],
} satisfies PublicOperation;

export const OpenApi = {
  tag: 'Service',
  summary: 'This document',
  description:
    'The OpenAPI 3.1 description of every route, generated from the schemas the handlers validate with (`npm run openapi` writes it to docs/openapi.json).',
  auth: 'none',
  success: [{ status: 200, mediaType: 'application/json', body: 'openApiDocument' }],
} satisfies PublicOperation;
