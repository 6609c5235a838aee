import { listDeliveries } from '#shared/domain/subscriber-webhooks/deliveries';
import { requireSubscription } from '#shared/domain/subscriber-webhooks/subscriptions';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { ListWebhookDeliveries } from '#shared/schemas/operations/subscriber-webhooks';

export const handler = httpOperation(ListWebhookDeliveries.request, async ({ params, query, workspace }) => {
  await requireSubscription(workspace.id, params.id);
  const { data, pagination } = await listDeliveries(workspace.id, params.id, query.page, query.pageSize);
  return ok(data, { pagination });
});
