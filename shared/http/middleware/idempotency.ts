import { beginIdempotent, completeIdempotent, fingerprint, outcomeOf, releaseIdempotent, replayError } from '#shared/http/idempotency';
import { isDomainError, errors } from '#shared/errors';
import { statusOf } from '#shared/http/errors';
import type { ApiMiddleware } from '#shared/http/context';
import type { HttpResult } from '#shared/http/responses';
import { logger } from '#shared/logger';

const MAX_KEY_LENGTH = 255;

/**
 * `Idempotency-Key` for one endpoint (contract §5): the first attempt's result (or client error)
 * is stored for 24 hours and replayed with `Idempotent-Replayed: true`; the same key with another
 * request is 422, and while the first is in flight, 409. Unexpected failures store nothing.
 */
export const idempotency = (endpoint: string): ApiMiddleware => ({
  before: async ({ event, context }) => {
    const key = event.headers['idempotency-key'];
    if (key === undefined) return;
    if (key.length < 1 || key.length > MAX_KEY_LENGTH) {
      throw errors.validation([{ field: 'Idempotency-Key', message: `Must be 1 to ${MAX_KEY_LENGTH} characters` }]);
    }
    const requestScope = { workspaceId: context.caller!.workspace.id, endpoint, key };
    const begun = await beginIdempotent(requestScope, fingerprint(event.rawPath, (event as { parsedBody?: unknown }).parsedBody));
    if (begun.kind === 'replay') {
      if ('error' in begun.outcome) throw replayError(begun.outcome);
      context.replay = { ...begun.outcome.result, headers: { ...begun.outcome.result.headers, 'Idempotent-Replayed': 'true' } };
      return;
    }
    context.idempotency = requestScope;
    context.resourceId = begun.resourceId;
  },
  after: async ({ response, context }) => {
    if (context.idempotency) await completeIdempotent(context.idempotency, outcomeOf.result(response as unknown as HttpResult));
  },
  onError: async ({ error, context }) => {
    const scope = context.idempotency;
    if (!scope) return;
    // Failing here must not replace the request's own error: a record left in flight is taken over once its lock lapses.
    try {
      if (isDomainError(error) && statusOf(error) < 500) await completeIdempotent(scope, outcomeOf.error(error));
      else await releaseIdempotent(scope);
    } catch (settleError) {
      logger.warn('Idempotency record not settled', { error: settleError });
    }
  },
});
