import { listSubscriptions, subscriptionView } from '#shared/domain/subscriber-webhooks/subscriptions';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { ListWebhooks } from '#shared/schemas/operations/subscriber-webhooks';

export const handler = httpOperation(ListWebhooks.request, async ({ workspace }) => ok((await listSubscriptions(workspace.id)).map(subscriptionView)));
