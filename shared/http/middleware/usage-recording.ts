import { recordUsage } from '#shared/http/usage';
import type { ApiMiddleware, ApiRequest } from '#shared/http/context';
import { logger } from '#shared/logger';

/** Counts every authenticated call, successful or not (a 429 as failed), once its response is known. */
export const usageRecording = (): ApiMiddleware => {
  const record = ({ context, response }: ApiRequest) => {
    if (!context.caller || !response) return;
    const latencyMs = performance.now() - context.startedAt;
    context.background.push(
      recordUsage(context.caller.workspace.id, { successful: (response.statusCode ?? 500) < 400, latencyMs }).catch((error) =>
        logger.warn('Usage not recorded', { error }),
      ),
    );
  };
  return { after: record, onError: record };
};
