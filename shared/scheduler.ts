import { ConflictException, CreateScheduleCommand, DeleteScheduleCommand, ResourceNotFoundException, SchedulerClient } from '@aws-sdk/client-scheduler';
import { awsClientConfig, env } from '#shared/config';

let instance: SchedulerClient | undefined;
const scheduler = () => (instance ??= new SchedulerClient(awsClientConfig(process.env.SCHEDULER_ENDPOINT)));

export interface CampaignStart {
  workspace_id: string;
  campaign_id: string;
}

const scheduleName = (campaignId: string) => `campaign-${campaignId}`;

/**
 * A one-time EventBridge Scheduler schedule that invokes the campaign starter at `at`.
 * Idempotent: the schedule is named after the campaign, and an existing one is kept.
 */
export async function scheduleCampaignStart(start: CampaignStart, at: string): Promise<void> {
  try {
    await scheduler().send(
      new CreateScheduleCommand({
        Name: scheduleName(start.campaign_id),
        ScheduleExpression: `at(${new Date(at).toISOString().slice(0, 19)})`,
        ScheduleExpressionTimezone: 'UTC',
        FlexibleTimeWindow: { Mode: 'OFF' },
        ActionAfterCompletion: 'DELETE',
        Target: { Arn: env.required('CAMPAIGN_STARTER_ARN'), RoleArn: env.required('SCHEDULER_ROLE_ARN'), Input: JSON.stringify(start) },
      }),
    );
  } catch (error) {
    if (!(error instanceof ConflictException)) throw error;
  }
}

export async function unscheduleCampaignStart(campaignId: string): Promise<void> {
  try {
    await scheduler().send(new DeleteScheduleCommand({ Name: scheduleName(campaignId) }));
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
  }
}
