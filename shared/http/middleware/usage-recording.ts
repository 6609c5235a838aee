import { recordUsage } from '#shared/domain/usage';
import type { ApiMiddleware, ApiRequest } from '#shared/http/context';

/** Counts every authenticated call, successful or not, once its response is known. */
export const usageRecording = (): ApiMiddleware => {
  const record = ({ context, response }: ApiRequest) => {
    if (!context.caller || !response) return;
    const latencyMs = performance.now() - context.startedAt;
    context.background.push(recordUsage(context.caller.workspace.id, (response.statusCode ?? 500) < 400, latencyMs));
  };
  return { after: record, onError: record };
};
