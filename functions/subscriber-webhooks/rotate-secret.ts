import { rotateSecret } from '#shared/domain/subscriber-webhooks/subscriptions';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { RotateWebhookSecret } from '#shared/schemas/operations/subscriber-webhooks';

export const handler = httpOperation(RotateWebhookSecret.request, async ({ params, workspace }) => ok(await rotateSecret(workspace.id, params.id)));
