import { syncAllAccounts } from '#shared/domain/templates/catalog';
import { liveWorkspaces } from '#shared/domain/workspaces';
import { logger } from '#shared/logger';
import { withMetrics } from '#shared/metrics';

/** Scheduled: refreshes every workspace's templates; one workspace's platform error does not stop the others. */
export const handler = withMetrics(async (): Promise<{ synced: number; failed: number }> => {
  const results = await Promise.allSettled((await liveWorkspaces()).map((workspace) => syncAllAccounts(workspace)));
  const failed = results.filter((result) => result.status === 'rejected');
  for (const failure of failed) logger.error('Template sync failed', { error: failure.reason });
  return { synced: results.length - failed.length, failed: failed.length };
});
