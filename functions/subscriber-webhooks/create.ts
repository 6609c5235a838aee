import { createSubscription } from '#shared/domain/subscriber-webhooks/subscriptions';
import { httpOperation } from '#shared/http/operation';
import { created } from '#shared/http/responses';
import { CreateWebhook } from '#shared/schemas/operations/subscriber-webhooks';

export const handler = httpOperation(CreateWebhook.request, async ({ body, workspace }) => created(await createSubscription(workspace.id, body)));
