import { CreateScheduleCommand, DeleteScheduleCommand, ListSchedulesCommand, SchedulerClient } from '@aws-sdk/client-scheduler';
import { perEndpoint, serviceClientConfig, withoutSdkLogger } from '#shared/aws/clients';
import { env } from '#shared/config';

/** EventBridge Scheduler (https://docs.aws.amazon.com/scheduler/latest/APIReference/). */
const scheduler = perEndpoint(
  () => env.schedulerEndpoint,
  (endpoint) => withoutSdkLogger(new SchedulerClient(serviceClientConfig(endpoint))),
);

const isNamed = (error: unknown, name: string) => (error as Error | undefined)?.name === name;

/** What a campaign's schedule asks of its target: start a scheduled campaign, or hand on the messages its send window held. */
export interface CampaignSchedule {
  action: 'start' | 'resume';
  workspace_id: string;
  campaign_id: string;
}

const scheduleName = (campaignId: string) => `campaign-${campaignId}`;
/** One per campaign and opening time: every message held for the same opening shares it. */
const resumeName = (campaignId: string, at: number) => `campaign-${campaignId}-w${Math.floor(at / 1000)}`;

/** Schedules this instance has created (or found): every message held for one opening asks for the same, and the Scheduler's request rate is limited. */
const known = new Set<string>();

/** A one-time EventBridge Scheduler schedule that invokes the campaign schedule target at `at`. Idempotent: an existing one of that name is kept. */
async function createOneTimeSchedule(name: string, at: number, input: CampaignSchedule): Promise<void> {
  if (known.has(name)) return;
  try {
    // The SDK fills in its ClientToken, kept across the call's retries: a repeat of a create that was applied is not a conflict.
    await scheduler().send(
      new CreateScheduleCommand({
        Name: name,
        ScheduleExpression: `at(${new Date(at).toISOString().slice(0, 19)})`,
        ScheduleExpressionTimezone: 'UTC',
        FlexibleTimeWindow: { Mode: 'OFF' },
        ActionAfterCompletion: 'DELETE',
        Target: { Arn: env.campaignSchedule.targetArn, RoleArn: env.campaignSchedule.roleArn, Input: JSON.stringify(input) },
      }),
    );
  } catch (error) {
    if (!isNamed(error, 'ConflictException')) throw error;
  }
  known.add(name);
}

/** Starts a scheduled campaign at its `scheduled_at`. */
export const scheduleCampaignStart = (campaign: { workspace_id: string; campaign_id: string }, at: string): Promise<void> =>
  createOneTimeSchedule(scheduleName(campaign.campaign_id), Date.parse(at), { action: 'start', ...campaign });

/** Hands on, at `at`, the campaign's messages its send window held until then (contract §15). */
export const scheduleWindowResume = (campaign: { workspace_id: string; campaign_id: string }, at: number): Promise<void> =>
  createOneTimeSchedule(resumeName(campaign.campaign_id, at), at, { action: 'resume', ...campaign });

async function deleteSchedule(name: string): Promise<void> {
  try {
    await scheduler().send(new DeleteScheduleCommand({ Name: name }));
  } catch (error) {
    if (!isNamed(error, 'ResourceNotFoundException')) throw error;
  }
  known.delete(name);
}

export const unscheduleCampaignStart = (campaignId: string): Promise<void> => deleteSchedule(scheduleName(campaignId));

/** Every schedule of the campaign: its start and each send-window resume (listed by their name's prefix). For the erasure of its workspace. */
export async function unscheduleCampaign(campaignId: string): Promise<void> {
  await deleteSchedule(scheduleName(campaignId));
  const prefix = `${scheduleName(campaignId)}-w`;
  let token: string | undefined;
  do {
    const page = await scheduler().send(new ListSchedulesCommand({ NamePrefix: prefix, NextToken: token }));
    for (const schedule of page.Schedules ?? []) if (schedule.Name) await deleteSchedule(schedule.Name);
    token = page.NextToken;
  } while (token);
}
