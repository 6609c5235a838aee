import { processErasureJob, type ErasureJob } from '#shared/domain/operator/erasure';
import { sqsJobHandler } from '#shared/sqs-worker';

export const handler = sqsJobHandler<ErasureJob>('erasure', processErasureJob);
