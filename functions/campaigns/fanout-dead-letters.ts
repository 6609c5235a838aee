import { failDeadLetteredChunk, type FanoutJob } from '#shared/domain/campaigns/fanout';
import { sqsJobHandler } from '#shared/sqs-worker';

/** The fan-out queue's dead letters: each chunk's recipients get failed messages and the campaign goes on to complete. */
export const handler = sqsJobHandler<FanoutJob>('fanout', failDeadLetteredChunk);
