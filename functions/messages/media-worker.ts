import { copyInboundMedia, type MediaCopyJob } from '#shared/domain/messages/media-copy';
import { sqsJobHandler } from '#shared/sqs-worker';

/** Copies each inbound message's media into the media bucket (contract §13). */
export const handler = sqsJobHandler<MediaCopyJob>('media', (job, { receiveCount }) => copyInboundMedia(job, receiveCount));
