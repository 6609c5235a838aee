import { patchSubscription } from '#shared/domain/subscriber-webhooks/subscriptions';
import { httpOperation } from '#shared/http/operation';
import { updateWebhookBody } from '#shared/schemas/subscriber-webhooks';
import { ok } from '#shared/http/responses';
import { idParams } from '#shared/schemas/common';

export const handler = httpOperation({ params: idParams, body: updateWebhookBody }, async ({ params, body, workspace }) => ok(await patchSubscription(workspace.id, params.id, body)));
