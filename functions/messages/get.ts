import { messageDetail } from '#shared/domain/messages/detail';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { GetMessage } from '#shared/schemas/operations/messages';

export const handler = httpOperation(GetMessage.request, async ({ params, workspace }) => ok(await messageDetail(workspace, params.id)));
