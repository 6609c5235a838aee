import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { processSendJob, type SendJob } from '#shared/domain/messages/send';
import { queueUrl, retryAfter } from '#shared/queues';

/** A job to retry later fails in the batch report after its visibility is set to the back-off. */
async function sendOne(record: SQSRecord): Promise<void> {
  const outcome = await processSendJob(JSON.parse(record.body) as SendJob);
  if (outcome.kind === 'retry') {
    await retryAfter(queueUrl('send'), record.receiptHandle, outcome.delaySeconds);
    throw new Error(`retry in ${outcome.delaySeconds} s`);
  }
}

/** A processor per invocation: it holds the batch's state, and the local runtime runs invocations concurrently. */
export const handler = async (event: SQSEvent) => processPartialResponse(event, sendOne, new BatchProcessor(EventType.SQS), { throwOnFullBatchFailure: false });
