import { logger } from '#shared/logger';

/**
 * The errors behind the service's 500s, by request id. The handlers run in the test's process with
 * their logs silenced, so a 500 a test did not expect would otherwise fail with no cause: each
 * error the envelope logs (`Unexpected error`, with the request id) is kept, the latest few only.
 */
const KEPT = 50;
const byRequestId = new Map<string, unknown>();
const logError = logger.error.bind(logger);
logger.error = (message: string, ...extra: unknown[]) => {
  const [details] = extra as [{ requestId?: string; error?: unknown } | undefined];
  if (details?.requestId) {
    byRequestId.set(details.requestId, details.error);
    if (byRequestId.size > KEPT) byRequestId.delete(byRequestId.keys().next().value!);
  }
  return logError(message, ...(extra as []));
};

/** The error the service logged for this request, if it logged one. */
export const unexpectedErrorOf = (requestId: string | undefined) => (requestId ? byRequestId.get(requestId) : undefined);
