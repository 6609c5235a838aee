import { admittedInLastTwoSeconds } from '#shared/data/usage';
import type { Plan, Workspace } from '#shared/domain/workspaces';
import { httpErrors } from '#shared/http/errors';
import { epochSeconds } from '#shared/time';

/** Requests per second by plan (contract §14), unless the operator set the workspace's own. */
export const PLAN_RATE_LIMITS: Record<Plan, number> = { starter: 20, growth: 100, pro: 500 };

export const rateLimitOf = (workspace: Workspace): number => workspace.rate_limit ?? PLAN_RATE_LIMITS[workspace.plan];

/** A workspace's admitted requests in this second and the one before, read (or being read) for one request. */
export interface RateWindows {
  workspaceId: string;
  second: number;
  counts: Promise<{ current: number; previous: number }>;
}

/** Starts reading the workspace's rate windows for a request arriving now. */
export function readRateWindows(workspaceId: string, now = Date.now()): RateWindows {
  const second = epochSeconds(new Date(now));
  return { workspaceId, second, counts: admittedInLastTwoSeconds(workspaceId, second) };
}

/**
 * Admits a request of the workspace, or refuses it with 429 `rate_limited`. The counts are the
 * admitted requests of this second and the one before, kept by the usage write of each request
 * (one atomic ADD, the same write that counts usage: no write of its own). A request is refused
 * once the two seconds hold twice the limit: the rate averages to the limit over time, and one
 * second may take a burst of up to twice it. Answers the admitted second, which the usage write
 * counts the request in. `windows` may have been read already, alongside the key (authenticate).
 */
export async function admitRequest(workspace: Workspace, windows?: RateWindows): Promise<number> {
  const { second, counts } = windows?.workspaceId === workspace.id ? windows : readRateWindows(workspace.id);
  const limit = rateLimitOf(workspace);
  const { current, previous } = await counts;
  if (previous + current < 2 * limit) return second;
  // The next second drops `previous`; a full current second needs one more.
  const retryAfter = current < 2 * limit ? 1 : 2;
  throw httpErrors.rateLimited(retryAfter, limit);
}
