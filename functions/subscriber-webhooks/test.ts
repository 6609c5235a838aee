import { post, settle } from '#shared/domain/subscriber-webhooks/attempt';
import { claimDeliveryAttempt, ensureDelivery } from '#shared/domain/subscriber-webhooks/deliveries';
import { requireSubscription } from '#shared/domain/subscriber-webhooks/subscriptions';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { newId } from '#shared/ids';
import { nowIso } from '#shared/time';
import { enqueue, queueUrl } from '#shared/queue-client';
import { TestWebhook } from '#shared/schemas/operations/subscriber-webhooks';

/** Sends a `ping` now and answers with its result; it is logged like any delivery (and retried like one if it failed). */
export const handler = httpOperation(TestWebhook.request, async ({ params, workspace }) => {
  const subscription = await requireSubscription(workspace.id, params.id);
  const delivery = await ensureDelivery(subscription.id, {
    id: newId(),
    type: 'ping',
    created_at: nowIso(),
    workspace_id: workspace.id,
    data: { webhook_id: subscription.id },
  });
  await claimDeliveryAttempt(delivery);
  const result = await post(subscription, delivery);
  // A failed ping is retried on the schedule like any delivery.
  if ((await settle(subscription, delivery, 1, result)).kind === 'retry') {
    await enqueue(queueUrl('webhook'), [{ workspace_id: workspace.id, webhook_id: subscription.id, delivery_id: delivery.id }]);
  }
  return ok({ delivery_id: delivery.id, success: result.ok, status_code: result.statusCode, duration_ms: Math.round(result.durationMs) });
});
