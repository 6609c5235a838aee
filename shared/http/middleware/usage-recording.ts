import { countRequest, recordAnswer } from '#shared/http/usage';
import type { ApiMiddleware, ApiRequest } from '#shared/http/context';
import { logger } from '#shared/logger';

const logged = (write: Promise<void>) => write.catch((error) => logger.warn('Usage not recorded', { error }));

/**
 * Counts an admitted request while the handler works (placed after the rate limit), so the count
 * is not one more round trip after the answer. `afterAnswer` leaves it to usageRecording: a
 * request that reads usage must not see itself (contract §9).
 */
export const requestCounting = (options: { afterAnswer?: boolean } = {}): ApiMiddleware => ({
  before: ({ context }) => {
    if (options.afterAnswer || !context.caller) return;
    context.background.push(logged(countRequest(context.caller.workspace.id)));
    context.counted = true;
  },
});

/** Completes the usage of every authenticated call, successful or not (a 429 as failed), once its response is known. */
export const usageRecording = (): ApiMiddleware => {
  const record = ({ context, response }: ApiRequest) => {
    if (!context.caller || !response) return;
    const write = recordAnswer(context.caller.workspace.id, {
      counted: context.counted ?? false,
      successful: (response.statusCode ?? 500) < 400,
      latencyMs: performance.now() - context.startedAt,
    });
    if (write) context.background.push(logged(write));
  };
  return { after: record, onError: record };
};
