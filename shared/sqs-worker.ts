import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import type { QueueName } from '#shared/service/queues';
import { queueUrl, retryAfter } from '#shared/queue-client';
import { withMetrics } from '#shared/metrics';

/** What a job asks for: nothing (done), or to come back after a delay. */
export type JobOutcome = { kind: 'done' } | { kind: 'retry'; delaySeconds: number };

/**
 * An SQS worker with partial batch responses: each record's JSON body is one job. A job that
 * asks to come back later has its visibility set to the delay and is reported failed, so SQS
 * redelivers it then (back-off without sleeping); a job that throws is redelivered after the
 * visibility time-out, and dead-lettered after the queue's maxReceiveCount. A processor per
 * invocation: it holds the batch's state, and the local runtime runs invocations concurrently.
 * The batch's business metrics are printed when it ends.
 */
/** Which queue message a job came in, and how many times it has been received. */
export interface Delivery {
  messageId: string;
  receiveCount: number;
}

export function sqsJobHandler<Job>(queue: QueueName, processJob: (job: Job, delivery: Delivery) => Promise<JobOutcome | void>) {
  return withMetrics(async (event: SQSEvent) =>
    processPartialResponse(
      event,
      async (record: SQSRecord) => {
        const outcome = await processJob(JSON.parse(record.body) as Job, {
          messageId: record.messageId,
          receiveCount: Number(record.attributes.ApproximateReceiveCount ?? 1),
        });
        if (outcome && outcome.kind === 'retry') {
          await retryAfter(queueUrl(queue), record.receiptHandle, outcome.delaySeconds);
          throw new Error(`retry in ${outcome.delaySeconds} s`);
        }
      },
      new BatchProcessor(EventType.SQS),
      { throwOnFullBatchFailure: false },
    ),
  );
}
