import { createSubscription } from '#shared/domain/subscriber-webhooks/subscriptions';
import { httpOperation } from '#shared/http/operation';
import { createWebhookBody } from '#shared/schemas/subscriber-webhooks';
import { created } from '#shared/http/responses';

export const handler = httpOperation({ body: createWebhookBody }, async ({ body, workspace }) => created(await createSubscription(workspace.id, body)));
