import type { DynamoDBRecord } from 'aws-lambda';
import { campaignFromStreamImage } from '#shared/data/campaign';
import { getMessage, messageFromStreamImage } from '#shared/data/message';
import { updateMedia } from '#shared/data/message-status';
import { readStreamBatch, type StreamBatchInfo } from '#shared/data/stream-batch';
import { failDeadLetteredChunk } from '#shared/domain/campaigns/fanout';
import { applyStatus } from '#shared/domain/messages/status';
import { runFollowUps } from '#shared/domain/outbox/follow-ups';
import { countMessages } from '#shared/domain/outbox/counts';
import { logger } from '#shared/logger';
import { nowIso } from '#shared/time';
import { env } from '#shared/config';

/** What Lambda's on-failure destination receives: which function gave up on which batch. */
export interface StreamFailure {
  requestContext: { functionArn: string };
  DDBStreamBatchInfo: StreamBatchInfo;
}

/** `arn:aws:lambda:region:account:function:name[:qualifier]` → name. */
const functionName = (arn: string) => arn.split(':')[6];

/**
 * A stream batch Lambda gave up on (its retries exhausted): each record's follow-up is tried once
 * more on its own, and a record whose follow-up still fails is given a final, visible state
 * instead of waiting for ever (contract §14). Safe whichever stream function failed the batch:
 * every follow-up is idempotent. A batch of the counting function is counted again whole, as it
 * was received (its marks make that count once); another function's batch starts elsewhere, and
 * its records are counted by the counting function's own batches.
 */
export async function settleFailedStreamBatch(failure: StreamFailure): Promise<void> {
  const info = failure.DDBStreamBatchInfo;
  const records = await readStreamBatch(info);
  logger.error('StreamBatchFailed', { shardId: info.shardId, records: records.length, functionArn: failure.requestContext.functionArn });
  if (functionName(failure.requestContext.functionArn) === env.messageCountingFunction) await countMessages(records);
  for (const record of records) {
    try {
      await runFollowUps([record]);
    } catch (error) {
      logger.error('StreamFollowUpGivenUp', { eventId: record.eventID, error: (error as Error).message });
      await giveUp(record);
    }
  }
}

const NOT_QUEUED = 'Its send could not be queued: the table stream failed on every try';

/**
 * What each follow-up leaves when it cannot run: a message whose send job could never be queued
 * fails; a media copy is noted as given up; a fan-out that never started fails its first chunk and
 * goes on. A campaign whose start schedule could not be created or removed keeps its status, and
 * the `StreamFollowUpGivenUp` log line names it (docs/limits.md).
 */
async function giveUp(record: DynamoDBRecord): Promise<void> {
  const inserted = record.eventName === 'INSERT' ? messageFromStreamImage(record.dynamodb?.NewImage) : undefined;
  const campaign = campaignFromStreamImage(record.dynamodb?.NewImage);
  if (inserted?.direction === 'outbound') {
    const ws = inserted.workspace_id;
    const message = await getMessage(ws, inserted.id, true);
    // A job that did get through has claimed or attempted it: that send goes on.
    if (message?.status !== 'queued' || message.attempts || message.provider_message_id) return;
    await applyStatus(ws, message.id, { status: 'failed', at: nowIso(), error: { code: 'send_failed', title: NOT_QUEUED } });
  } else if (inserted?.media?.media_id) {
    await updateMedia(inserted.workspace_id, inserted.id, { download_error: 'The copy could not be queued: the table stream failed on every try' });
  } else if (campaign?.status === 'running' && campaignFromStreamImage(record.dynamodb?.OldImage)?.status !== 'running') {
    await failDeadLetteredChunk({
      workspace_id: campaign.workspace_id,
      campaign_id: campaign.id,
      launch_id: campaign.launch_id as string,
      ...(campaign.retry_id ? { retry_id: campaign.retry_id } : {}),
      chunk: 0,
    });
  }
}
