import { createHash } from 'node:crypto';
import { getMessage } from '#shared/data/message';
import { cachedWorkspace } from '#shared/domain/workspaces';
import { updateMedia } from '#shared/data/message-status';
import { putObject } from '#shared/media/bucket';
import { MEDIA_DISPOSITION, servedType } from '#shared/media/served-type';
import { downloadMedia, fetchMediaObject } from '#shared/platform/graph-client';
import { accessTokenFor } from '#shared/platform/secrets';
import { queues } from '#shared/service/queues';
import { logger } from '#shared/logger';
import type { JobOutcome } from '#shared/sqs-worker';
import { env } from '#shared/config';

export interface MediaCopyJob {
  workspace_id: string;
  message_id: string;
}

const done: JobOutcome = { kind: 'done' };
/** Back-off between tries: 10 s, 40 s, 160 s, 640 s (MEDIA_BACKOFF_SCALE shortens it in tests). */
const backoffSeconds = (receiveCount: number) => Math.ceil(10 * 4 ** (receiveCount - 1) * env.testScales.mediaBackoff);

/** Where a copy lives: per workspace and message, so one message's media is one object. */
const objectKey = (job: MediaCopyJob, mediaId: string) => `${job.workspace_id}/${job.message_id}/${mediaId.replace(/[^A-Za-z0-9_.-]/g, '_')}`;

/**
 * Copies a customer's media from the platform into the media bucket (contract §13): the media
 * object (`GET /{media_id}`), then its bytes with the same token, checked against the platform's
 * sha256. A failure comes back through the queue with back-off; after the queue's last try the
 * message keeps `media.url: null` and notes why. The message itself was stored before this ran.
 */
export async function copyInboundMedia(job: MediaCopyJob, receiveCount: number): Promise<JobOutcome> {
  const message = await getMessage(job.workspace_id, job.message_id, true);
  const media = message?.media;
  if (!media?.media_id || media.stored_key || media.download_error) return done;
  // A workspace being erased stores no more media: its objects are going.
  if (!(await cachedWorkspace(job.workspace_id))) return done;
  try {
    const token = await accessTokenFor(job.workspace_id);
    const object = await fetchMediaObject(media.media_id, token);
    const bytes = await downloadMedia(object.url, token);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const expected = object.sha256 ?? media.sha256;
    if (expected && expected !== sha256) throw new Error(`Downloaded media does not match the platform's sha256 (${bytes.length} bytes)`);
    const key = objectKey(job, media.media_id);
    await putObject(key, bytes, servedType(object.mime_type), MEDIA_DISPOSITION);
    await updateMedia(job.workspace_id, job.message_id, { stored_key: key, mime_type: object.mime_type, sha256, size: bytes.length });
    return done;
  } catch (error) {
    const reason = (error as Error).message;
    if (receiveCount < queues.media.maxReceiveCount) {
      logger.warn('Media copy failed, will retry', { messageId: job.message_id, receiveCount, error: reason });
      return { kind: 'retry', delaySeconds: backoffSeconds(receiveCount) };
    }
    logger.error('Media copy given up', { messageId: job.message_id, error: reason });
    await updateMedia(job.workspace_id, job.message_id, { download_error: reason });
    return done;
  }
}
