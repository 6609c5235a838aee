import type { DynamoDBStreamEvent } from 'aws-lambda';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
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
    if (record.eventName !== 'INSERT' || !record.dynamodb?.NewImage) continue;
    const item = unmarshall(record.dynamodb.NewImage as Record<string, AttributeValue>);
    if (item.SK === 'MESSAGE' && item.direction === 'outbound' && item.status === 'queued') {
      jobs.push({ workspace_id: item.workspace_id, message_id: item.id });
    }
  }
  await enqueue(queueUrl('send'), jobs);
};
