import type { ApiMiddleware } from '#shared/http/context';
import { publishMetrics } from '#shared/metrics';

/** Prints the request's business metrics once its response is known, success or error (first in the stack, so its after runs last). */
export const metricsPublishing = (): ApiMiddleware => ({
  after: () => publishMetrics(),
  onError: () => publishMetrics(),
});
