import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { processDeliveryJob } from '#shared/domain/webhooks/attempt';
import type { DeliveryJob } from '#shared/domain/webhooks/dispatch';
import { queueUrl, retryAfter } from '#shared/queues';

/** A delivery to try again later fails in the batch report after its job's visibility is set to the retry delay. */
async function deliverOne(record: SQSRecord): Promise<void> {
  const outcome = await processDeliveryJob(JSON.parse(record.body) as DeliveryJob);
  if (outcome.kind === 'retry') {
    await retryAfter(queueUrl('webhook'), record.receiptHandle, outcome.delaySeconds);
    throw new Error(`retry in ${outcome.delaySeconds} s`);
  }
}

export const handler = async (event: SQSEvent) => processPartialResponse(event, deliverOne, new BatchProcessor(EventType.SQS), { throwOnFullBatchFailure: false });
