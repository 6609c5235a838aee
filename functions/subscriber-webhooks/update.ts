import * as v from 'valibot';
import { webhookEvents, webhookUrl } from '#shared/domain/subscriber-webhooks/schema';
import { patchSubscription } from '#shared/domain/subscriber-webhooks/subscriptions';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { idParams } from '#shared/http/schemas';

const body = v.object({ url: v.optional(webhookUrl), events: v.optional(webhookEvents), is_active: v.optional(v.boolean()) });

export const handler = httpOperation({ params: idParams, body }, async ({ params, body, workspace }) => ok(await patchSubscription(workspace.id, params.id, body)));
