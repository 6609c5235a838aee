import { getMessage } from '#shared/data/message';
import { applyStatus } from '#shared/domain/messages/status';
import type { SendJob } from '#shared/domain/messages/send-queue-job';
import { nowIso } from '#shared/time';

/**
 * A send job the queue gave up on (it failed every receive): its message, if still `queued`, fails
 * with `send_failed` (contract §14), which also lets its campaign complete. Nothing else stays
 * waiting on a job that no worker will ever take again.
 */
export async function failDeadLetteredSend(job: SendJob): Promise<void> {
  const message = await getMessage(job.workspace_id, job.message_id, true);
  if (message?.status !== 'queued') return;
  await applyStatus(job.workspace_id, job.message_id, {
    status: 'failed',
    at: nowIso(),
    error: { code: 'send_failed', title: 'The send job failed on every try and was given up' },
  });
}
