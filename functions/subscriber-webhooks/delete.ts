import { deleteSubscription } from '#shared/domain/subscriber-webhooks/subscriptions';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { idParams } from '#shared/schemas/common';

export const handler = httpOperation({ params: idParams }, async ({ params, workspace }) => {
  await deleteSubscription(workspace.id, params.id);
  return ok({ id: params.id, deleted: true });
});
