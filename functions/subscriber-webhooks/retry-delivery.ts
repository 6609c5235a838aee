import { getDelivery, reopenDelivery, deliveryView } from '#shared/domain/subscriber-webhooks/deliveries';
import { requireSubscription } from '#shared/domain/subscriber-webhooks/subscriptions';
import { errors } from '#shared/errors';
import { httpOperation } from '#shared/http/operation';
import { accepted } from '#shared/http/responses';
import { enqueue, queueUrl } from '#shared/queue-client';
import { RetryWebhookDelivery } from '#shared/schemas/operations/subscriber-webhooks';

/** Puts a delivery back in the queue now (202: it is attempted right after). */
export const handler = httpOperation(RetryWebhookDelivery.request, async ({ params, workspace }) => {
  await requireSubscription(workspace.id, params.id);
  const delivery = await getDelivery(workspace.id, params.id, params.delivery_id);
  if (!delivery) throw errors.notFound('Delivery');
  const reopened = await reopenDelivery(delivery);
  await enqueue(queueUrl('webhook'), [{ workspace_id: workspace.id, webhook_id: params.id, delivery_id: delivery.id }]);
  return accepted(deliveryView(reopened));
});
