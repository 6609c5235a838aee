import { requireSubscription, subscriptionView } from '#shared/domain/subscriber-webhooks/subscriptions';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { GetWebhook } from '#shared/schemas/operations/subscriber-webhooks';

export const handler = httpOperation(GetWebhook.request, async ({ params, workspace }) =>
  ok(subscriptionView(await requireSubscription(workspace.id, params.id))),
);
