import { deleteSubscription } from '#shared/domain/subscriber-webhooks/subscriptions';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { DeleteWebhook } from '#shared/schemas/operations/subscriber-webhooks';

export const handler = httpOperation(DeleteWebhook.request, async ({ params, workspace }) => {
  await deleteSubscription(workspace.id, params.id);
  return ok({ id: params.id, deleted: true });
});
