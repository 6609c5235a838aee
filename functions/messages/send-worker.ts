import { processSendJob } from '#shared/domain/messages/send-job';
import type { SendJob } from '#shared/domain/messages/send-queue-job';
import { sqsJobHandler } from '#shared/sqs-worker';

export const handler = sqsJobHandler<SendJob>('send', processSendJob);
