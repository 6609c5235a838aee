import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { settleFailedStreamBatch, type StreamFailure } from '#shared/domain/outbox/stream-failures';
import { withMetrics } from '#shared/metrics';

/** The table stream's on-failure destination: Lambda's description of each batch it gave up on. */
export const handler = withMetrics(async (event: SQSEvent) =>
  processPartialResponse(
    event,
    async (record: SQSRecord) => settleFailedStreamBatch(JSON.parse(record.body) as StreamFailure),
    new BatchProcessor(EventType.SQS),
    { throwOnFullBatchFailure: false },
  ),
);
