import type { ServiceEvent } from '#shared/events/event';
import { enqueue, queueUrl } from '#shared/queue-client';
import { ensureDelivery } from '#shared/domain/subscriber-webhooks/deliveries';
import { cachedWorkspace } from '#shared/domain/workspaces';
import { cachedSubscriptions } from '#shared/domain/subscriber-webhooks/subscription-cache';

export interface DeliveryJob {
  workspace_id: string;
  webhook_id: string;
  delivery_id: string;
}

/**
 * One event: a delivery per active subscription of the event's workspace that takes its type
 * (or `*`), as this process read them at most a few seconds ago (subscription-cache.ts), each handed to the delivery queue. Run again (a retried event), it finds the same
 * deliveries and queues the pending ones again: at least once, never to another workspace.
 */
export async function dispatchEvent(event: ServiceEvent): Promise<number> {
  // A workspace being erased (or erased) gets no more deliveries.
  if (!(await cachedWorkspace(event.workspace_id))) return 0;
  const subscriptions = (await cachedSubscriptions(event.workspace_id)).filter((s) => s.is_active && (s.events.includes('*') || s.events.includes(event.type)));
  const deliveries = await Promise.all(subscriptions.map((subscription) => ensureDelivery(subscription.id, event)));
  const jobs: DeliveryJob[] = deliveries
    .filter((d) => d.status === 'pending')
    .map((d) => ({ workspace_id: d.workspace_id, webhook_id: d.webhook_id, delivery_id: d.id }));
  await enqueue(queueUrl('webhook'), jobs);
  return jobs.length;
}
