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

export const ApiReference = {
  tag: 'Service',
  summary: 'The API reference',
  description:
    'This document in the browser, rendered by Redoc: every operation with its request and response samples and errors, and the webhooks. Everything it loads is served by the deployment (its script from `GET /docs/redoc.standalone.js`, then this document), so it works without internet access.',
  auth: 'none',
  success: [{ status: 200, mediaType: 'text/html', body: 'apiReferencePage' }],
} satisfies PublicOperation;

export const ApiReferenceScript = {
  tag: 'Service',
  summary: "The API reference's renderer",
  description: 'The script the reference page loads (Redoc), cached by browsers for a year: the page names its version.',
  auth: 'none',
  success: [{ status: 200, mediaType: 'text/javascript', body: 'apiReferenceScript' }],
} satisfies PublicOperation;
