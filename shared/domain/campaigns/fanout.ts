import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#shared/data/table/client';
import { keys } from '#shared/data/keys';
import { applyUnits, type Unit } from '#shared/data/table/units';
import { messageShard, type Message } from '#shared/domain/messages/message';
import { render } from '#shared/domain/messages/render';
import { messageItem } from '#shared/domain/messages/store';
import { stableId } from '#shared/ids';
import { enqueue, queueUrl } from '#shared/queues';
import { nowIso } from '#shared/time';
import type { Campaign } from '#shared/domain/campaigns/campaign';
import type { Recipient } from '#shared/domain/campaigns/audience';
import { completeIfDone } from '#shared/domain/campaigns/completion';
import { getCampaign } from '#shared/domain/campaigns/store';

export interface FanoutJob {
  workspace_id: string;
  campaign_id: string;
  launch_id: string;
  chunk: number;
}

function campaignMessage(campaign: Campaign, recipient: Recipient, now: string): Message {
  return {
    // The same recipient of the same launch always gets the same id: a re-delivered chunk creates nothing new.
    id: stableId(`${campaign.id}:${campaign.launch_id}:${recipient.p}`, Date.parse(campaign.queued_at!)),
    workspace_id: campaign.workspace_id,
    phone_number: recipient.p,
    direction: 'outbound',
    status: 'queued',
    message_type: 'template',
    template_name: campaign.template_name,
    language: campaign.language,
    content: render(campaign.template_content ?? '', recipient.v),
    variables: recipient.v,
    campaign_id: campaign.id,
    provider_message_id: null,
    error: null,
    metadata: { sent_at: null, delivered_at: null, read_at: null, failed_at: null },
    created_at: now,
    updated_at: now,
  };
}

/** A message with its counts: its campaign shard's total and pending, its workspace shard's queued. Idempotent by id. */
const messageUnit = (message: Message): Unit => ({
  items: [{ Put: { TableName: tableName(), Item: messageItem(message), ConditionExpression: 'attribute_not_exists(PK)' } }],
  counters: [
    { key: keys.campaignMetrics(message.workspace_id, message.campaign_id!, messageShard(message.id)), attribute: 'total_messages', delta: 1 },
    { key: keys.campaignMetrics(message.workspace_id, message.campaign_id!, messageShard(message.id)), attribute: 'pending', delta: 1 },
    { key: keys.messageCounts(message.workspace_id, messageShard(message.id)), attribute: 'queued', delta: 1 },
  ],
});

/**
 * One fan-out job: creates the chunk's messages in batched transactions (the table stream then
 * enqueues their sends), hands the next chunk to a new job, and after the last chunk marks the
 * fan-out done. Every step may run twice without creating or counting anything twice.
 */
export async function fanOutChunk(job: FanoutJob): Promise<void> {
  const campaign = await getCampaign(job.workspace_id, job.campaign_id);
  if (!campaign || campaign.status !== 'running' || campaign.launch_id !== job.launch_id) return;
  const { Item } = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.audienceChunk(job.workspace_id, job.campaign_id, job.launch_id, job.chunk), ConsistentRead: true }),
  );
  // Written before the launch committed: missing means something is badly wrong, so the job fails and is kept.
  if (!Item) throw new Error(`Audience chunk ${job.chunk} of campaign ${job.campaign_id} is missing`);
  const recipients = Item.recipients as Recipient[];
  const now = nowIso();
  await applyUnits(recipients.map((recipient) => messageUnit(campaignMessage(campaign, recipient, now))));

  if (job.chunk + 1 < campaign.audience_chunks) {
    await enqueue(queueUrl('fanout'), [{ ...job, chunk: job.chunk + 1 }]);
    return;
  }
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.campaign(job.workspace_id, job.campaign_id),
      UpdateExpression: 'SET fanout_done = :true',
      ConditionExpression: 'launch_id = :launch',
      ExpressionAttributeValues: { ':true': true, ':launch': job.launch_id },
    }),
  );
  await completeIfDone(job.workspace_id, job.campaign_id);
}
