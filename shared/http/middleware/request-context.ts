import { randomUUID } from 'node:crypto';
import type { ApiMiddleware } from '#shared/http/context';

/** Gives the request its id and start time, and waits for background writes before the function returns. */
export const requestContext = (): ApiMiddleware => {
  const settle = async ({ context }: { context: { background: Promise<unknown>[] } }) => {
    await Promise.allSettled(context.background);
  };
  return {
    before: ({ context }) => {
      context.requestId = randomUUID();
      context.startedAt = performance.now();
      context.background = [];
    },
    after: settle,
    onError: settle,
  };
};
