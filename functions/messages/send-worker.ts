import { processSendJob, type SendJob } from '#shared/domain/messages/send-job';
import { sqsJobHandler } from '#shared/sqs-worker';

export const handler = sqsJobHandler<SendJob>('send', processSendJob);
