import { claimAccountsOfExistingNumbers } from '#shared/domain/numbers/account-upgrade';
import { syncAllAccounts } from '#shared/domain/templates/catalog';
import { liveWorkspaces } from '#shared/domain/workspaces';
import { logger } from '#shared/logger';
import { withMetrics } from '#shared/metrics';

/**
 * Scheduled: claims the accounts of numbers connected before claims existed (the upgrade, contract
 * §22), then refreshes every workspace's templates; one workspace's platform error does not stop the others.
 */
export const handler = withMetrics(async (): Promise<{ synced: number; failed: number }> => {
  const workspaces = await liveWorkspaces();
  await claimAccountsOfExistingNumbers(workspaces);
  const results = await Promise.allSettled(workspaces.map((workspace) => syncAllAccounts(workspace)));
  const failed = results.filter((result) => result.status === 'rejected');
  for (const failure of failed) logger.error('Template sync failed', { error: failure.reason });
  return { synced: results.length - failed.length, failed: failed.length };
});
