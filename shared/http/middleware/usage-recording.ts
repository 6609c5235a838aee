import { recordAnswer } from '#shared/http/usage';
import type { ApiMiddleware, ApiRequest } from '#shared/http/context';
import { logger } from '#shared/logger';

const logged = (write: Promise<void>) => write.catch((error) => logger.warn('Usage not recorded', { error }));

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
