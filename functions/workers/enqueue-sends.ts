import type { DynamoDBStreamEvent } from 'aws-lambda';
import { streamImage } from '#shared/db/stream-image';
import type { SendJob } from '#shared/domain/messages/send';
import { enqueue, queueUrl } from '#shared/queues';

/**
 * The table's stream is the outbox: every outbound message stored `queued` (by the API or a
 * campaign fan-out) gets a send job, even if the writer died right after its write. A failed
 * batch is retried whole; duplicate jobs are harmless (the send worker's claim).
 */
export const handler = async (event: DynamoDBStreamEvent): Promise<void> => {
  const jobs: SendJob[] = [];
  for (const record of event.Records) {
    const item = record.eventName === 'INSERT' ? streamImage(record.dynamodb?.NewImage) : undefined;
    if (item?.SK === 'MESSAGE' && item.direction === 'outbound' && item.status === 'queued') {
      jobs.push({ workspace_id: item.workspace_id as string, message_id: item.id as string });
    }
  }
  await enqueue(queueUrl('send'), jobs);
};
