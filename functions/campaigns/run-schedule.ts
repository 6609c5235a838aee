import type { CampaignSchedule } from '#shared/scheduler';
import { startScheduledCampaign } from '#shared/domain/campaigns/lifecycle';
import { resumeHeldMessages } from '#shared/domain/campaigns/window-wait';
import { withMetrics } from '#shared/metrics';

/**
 * Invoked by a campaign's one-time schedules: the start of a scheduled campaign, or the opening of
 * its send window, which hands on the messages held for it (contract §15).
 */
export const handler = withMetrics(
  async (schedule: CampaignSchedule): Promise<{ started: boolean } | { resumed: number }> =>
    schedule.action === 'resume'
      ? { resumed: await resumeHeldMessages(schedule.workspace_id, schedule.campaign_id) }
      : { started: await startScheduledCampaign(schedule.workspace_id, schedule.campaign_id) },
);
