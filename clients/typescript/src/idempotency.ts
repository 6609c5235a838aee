import type { Middleware } from 'openapi-fetch';

/**
 * The operations that take an `Idempotency-Key` (the API document's `IdempotencyKey` parameter;
 * a test keeps this list equal to it).
 */
export const IDEMPOTENT_OPERATIONS = ['POST /api/v1/messages', 'POST /api/v1/campaigns/{id}/launch', 'POST /api/v1/campaigns/{id}/retry'];

/**
 * Gives every call of these operations a key of its own when the caller gave none, so a
 * retry of that call (after a 429, or the caller's own after a lost connection with the same
 * key) is never a second send. A key the caller gave is kept.
 */
export const idempotencyKeys = (): Middleware => ({
  onRequest({ request, schemaPath }) {
    if (IDEMPOTENT_OPERATIONS.includes(`${request.method} ${schemaPath}`) && !request.headers.has('Idempotency-Key')) {
      request.headers.set('Idempotency-Key', crypto.randomUUID());
    }
    return request;
  },
});
