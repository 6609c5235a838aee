import { listDeliveries } from '#shared/domain/subscriber-webhooks/deliveries';
import { requireSubscription } from '#shared/domain/subscriber-webhooks/subscriptions';
import { httpOperation } from '#shared/http/operation';
import { listDeliveriesQuery } from '#shared/schemas/subscriber-webhooks';
import { ok } from '#shared/http/responses';
import { idParams } from '#shared/schemas/common';

export const handler = httpOperation({ params: idParams, query: listDeliveriesQuery }, async ({ params, query, workspace }) => {
  await requireSubscription(workspace.id, params.id);
  const { data, pagination } = await listDeliveries(workspace.id, params.id, query.page, query.pageSize);
  return ok(data, { pagination });
});
