import { fanOutChunk, type FanoutJob } from '#shared/domain/campaigns/fanout';
import { sqsJobHandler } from '#shared/sqs-worker';

export const handler = sqsJobHandler<FanoutJob>('fanout', (job, { messageId, receiveCount }) => fanOutChunk(job, { jobId: messageId, receiveCount }));
