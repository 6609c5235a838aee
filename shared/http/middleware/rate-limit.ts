import type { ApiMiddleware } from '#shared/http/context';
import { admitRequest } from '#shared/http/rate-limit';

/** The workspace's request rate (contract §14), right after authentication: a refused request does no work. */
export const rateLimit = (): ApiMiddleware => ({
  before: async ({ context }) => {
    context.admittedSecond = await admitRequest(context.caller!.workspace, context.rateWindows);
  },
});
