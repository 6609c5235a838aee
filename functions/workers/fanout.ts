import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { fanOutChunk, type FanoutJob } from '#shared/domain/campaigns/fanout';

const fanOut = (record: SQSRecord) => fanOutChunk(JSON.parse(record.body) as FanoutJob);

export const handler = async (event: SQSEvent) => processPartialResponse(event, fanOut, new BatchProcessor(EventType.SQS), { throwOnFullBatchFailure: false });
