import { failDeadLetteredSend } from '#shared/domain/messages/dead-letters';
import type { SendJob } from '#shared/domain/messages/send-queue-job';
import { sqsJobHandler } from '#shared/sqs-worker';

/** The send queue's dead letters: each one's message ends `failed` instead of `queued` for ever. */
export const handler = sqsJobHandler<SendJob>('send', failDeadLetteredSend);
