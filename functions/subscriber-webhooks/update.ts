import { patchSubscription } from '#shared/domain/subscriber-webhooks/subscriptions';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { UpdateWebhook } from '#shared/schemas/operations/subscriber-webhooks';

export const handler = httpOperation(UpdateWebhook.request, async ({ params, body, workspace }) => ok(await patchSubscription(workspace.id, params.id, body)));
