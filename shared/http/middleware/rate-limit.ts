import type { ApiMiddleware } from '#shared/http/context';
import { HttpError } from '#shared/http/errors';
import { admitRequest } from '#shared/http/rate-limit';
import { countMetric } from '#shared/metrics';
import { BusinessMetric } from '#shared/metrics-catalog';

/**
 * The workspace's request rate (contract §14), right after authentication: a refused request does
 * no work. The admission counts the request in usage when `countsOnAdmission` (contract §9).
 */
export const rateLimit = ({ countsOnAdmission }: { countsOnAdmission: boolean }): ApiMiddleware => ({
  before: async ({ context }) => {
    try {
      const { counted, listShards } = await admitRequest(context.caller!.workspace, countsOnAdmission, context.admission);
      context.counted = counted;
      context.listShards = listShards;
    } catch (error) {
      if (error instanceof HttpError && error.code === 'rate_limited') countMetric(BusinessMetric.RequestsRateLimited);
      throw error;
    }
  },
});
