import * as v from 'valibot';
import { listDeliveries } from '#shared/domain/subscriber-webhooks/deliveries';
import { requireSubscription } from '#shared/domain/subscriber-webhooks/subscriptions';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { idParams, pageParams } from '#shared/http/schemas';

const query = v.object(pageParams);

export const handler = httpOperation({ params: idParams, query }, async ({ params, query, workspace }) => {
  await requireSubscription(workspace.id, params.id);
  const { data, pagination } = await listDeliveries(workspace.id, params.id, query.page, query.pageSize);
  return ok(data, { pagination });
});
