import type { DynamoDBRecord } from 'aws-lambda';
import { campaignFromStreamImage } from '#shared/data/campaign';
import { indexContactsOf } from '#shared/data/contact-search';
import { messageFromStreamImage } from '#shared/data/message';
import type { FanoutJob } from '#shared/domain/campaigns/fanout';
import type { SendJob } from '#shared/domain/messages/send-queue-job';
import type { MediaCopyJob } from '#shared/domain/messages/media-copy';
import { scheduleCampaignStart, scheduleWindowResume, unscheduleCampaignStart } from '#shared/scheduler';
import { enqueue, queueUrl } from '#shared/queue-client';
import { env } from '#shared/config';
import type { Message } from '#shared/records/message';

/** A schedule a minute ahead: one-time schedules take a time to come, not one that has passed. CANCELLED_RESUME_SECONDS shortens it in tests. */
const cancelledResumeDelayMs = () => env.cancelledResumeDelayMs;

/** A queued message's send job, naming what its worker reads beside it (send-queue-job.ts). */
const sendJobOf = (message: Message): SendJob => {
  const campaignId = message.campaign_id ?? message.test_of_campaign;
  return {
    workspace_id: message.workspace_id,
    message_id: message.id,
    ...(campaignId && { campaign_id: campaignId }),
    ...(message.business_number_id && { business_number_id: message.business_number_id }),
    ...(message.campaign_id && message.phone_number && { phone_number: message.phone_number }),
    ...(!campaignId && message.message_type === 'template' && { template: { name: message.template_name!, language: message.language! } }),
  };
};

/**
 * The table's stream is the outbox: follow-up work is derived from what was written, so it
 * happens even if the writer died right after its write. An outbound message stored `queued`
 * gets a send job; an inbound message with media a copy job; a campaign that starts running gets
 * its first fan-out job; a campaign that becomes scheduled gets its start schedule, removed again
 * if it is cancelled; a contact written gets its search entries. Every follow-up is idempotent,
 * so a batch may run again whole. Its event source gives it only messages while `queued` or
 * `received`, campaigns and contacts (`followUps` in
 * shared/data/table/stream-filters.ts): a follow-up of another record needs its filter there.
 */
export async function runFollowUps(records: DynamoDBRecord[]): Promise<void> {
  const sends: SendJob[] = [];
  const fanouts: FanoutJob[] = [];
  const mediaCopies: MediaCopyJob[] = [];
  const schedules: Promise<void>[] = [];
  for (const record of records) {
    const message = record.eventName === 'INSERT' ? messageFromStreamImage(record.dynamodb?.NewImage) : undefined;
    if (message) {
      // A campaign message held for its send window gets its job when the window's schedule fires; one stored so
      // late that its opening has passed (that schedule may have fired without it) gets it now: the worker checks the window.
      const held = typeof message.window_opens_at === 'string' && Date.parse(message.window_opens_at) > Date.now();
      if (message.direction === 'outbound' && message.status === 'queued' && !held) sends.push(sendJobOf(message));
      if (message.direction === 'inbound' && message.media?.media_id) mediaCopies.push({ workspace_id: message.workspace_id, message_id: message.id });
    }
    const item = campaignFromStreamImage(record.dynamodb?.NewImage);
    const before = campaignFromStreamImage(record.dynamodb?.OldImage);
    if (!item || before?.status === item.status) continue;
    const campaign = { workspace_id: item.workspace_id, campaign_id: item.id };
    // A campaign with a retry round runs again only for that round (contract §15).
    if (item.status === 'running')
      fanouts.push({ ...campaign, launch_id: item.launch_id as string, ...(item.retry_id ? { retry_id: item.retry_id } : {}), chunk: 0 });
    if (item.status === 'scheduled') schedules.push(scheduleCampaignStart(campaign, item.scheduled_at as string));
    if (item.status === 'cancelled' && before?.status === 'scheduled') schedules.push(unscheduleCampaignStart(campaign.campaign_id));
    // Messages a cancelled campaign held for its window are handed on soon, to fail `campaign_cancelled`, not at the opening.
    if (item.status === 'cancelled' && before?.status === 'running' && item.send_window)
      schedules.push(scheduleWindowResume(campaign, Date.now() + cancelledResumeDelayMs()));
  }
  await Promise.all([
    indexContactsOf(records),
    enqueue(queueUrl('send'), sends),
    enqueue(queueUrl('fanout'), fanouts),
    enqueue(queueUrl('media'), mediaCopies),
    ...schedules,
  ]);
}
