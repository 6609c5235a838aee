import { randomUUID } from 'node:crypto';
import { getText, putObject } from '#shared/media/bucket';
import { STORED_WEBHOOKS_PREFIX } from '#shared/media/bucket-settings';
import { enqueue, queueUrl } from '#shared/queue-client';
import { utcDate } from '#shared/time';

/**
 * What fits in a queue message with room to spare (SQS takes 256 KB). The platform may post
 * webhooks of up to 3 MB: a larger body is kept in the media bucket and its key is queued.
 */
const INLINE_LIMIT_BYTES = 200_000;

/** A queued platform webhook: the payload itself, or where the stored one is. */
export type PlatformWebhookJob = unknown | { stored_webhook: string };

/** Queues a signed platform webhook for its worker, whatever its size. */
export async function queuePlatformWebhook(raw: Buffer, payload: unknown): Promise<void> {
  if (raw.length <= INLINE_LIMIT_BYTES) return enqueue(queueUrl('inbound'), [payload]);
  const key = `${STORED_WEBHOOKS_PREFIX}${utcDate()}/${randomUUID()}.json`;
  await putObject(key, raw, 'application/json');
  await enqueue(queueUrl('inbound'), [{ stored_webhook: key }]);
}

/** The payload of a queued platform webhook. */
export async function platformWebhookPayload(job: PlatformWebhookJob): Promise<unknown> {
  const key = (job as { stored_webhook?: unknown } | null)?.stored_webhook;
  return typeof key === 'string' && key.startsWith(STORED_WEBHOOKS_PREFIX) ? JSON.parse(await getText(key)) : job;
}
