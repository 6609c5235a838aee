import * as v from 'valibot';
import { webhookEvents, webhookUrl } from '#shared/domain/subscriber-webhooks/schema';
import { createSubscription } from '#shared/domain/subscriber-webhooks/subscriptions';
import { httpOperation } from '#shared/http/operation';
import { created } from '#shared/http/responses';

const body = v.object({ url: webhookUrl, events: webhookEvents });

export const handler = httpOperation({ body }, async ({ body, workspace }) => created(await createSubscription(workspace.id, body)));
