import { markRead } from '#shared/domain/messages/read-receipt';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { MarkMessageRead } from '#shared/schemas/operations/messages';

export const handler = httpOperation(MarkMessageRead.request, async ({ params, body, workspace }) =>
  ok(await markRead(workspace, params.id, body.typing === true)),
);
