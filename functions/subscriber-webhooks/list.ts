import { listSubscriptions, subscriptionView } from '#shared/domain/subscriber-webhooks/subscriptions';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';

export const handler = httpOperation({}, async ({ workspace }) => ok((await listSubscriptions(workspace.id)).map(subscriptionView)));
