import type { CampaignStart } from '#shared/scheduler';
import { moveCampaign } from '#shared/domain/campaigns/lifecycle';
import { DomainError } from '#shared/errors';
import { nowIso } from '#shared/time';
import { withMetrics } from '#shared/metrics';

/**
 * Invoked by the campaign's one-time schedule: a campaign still `scheduled` starts running (the
 * table stream then starts its fan-out). One that was cancelled meanwhile stays as it is.
 */
export const handler = withMetrics(async (start: CampaignStart): Promise<{ started: boolean }> => {
  try {
    await moveCampaign(start.workspace_id, start.campaign_id, ['scheduled'], { status: 'running', started_at: nowIso() });
    return { started: true };
  } catch (error) {
    if (error instanceof DomainError) return { started: false };
    throw error;
  }
});
