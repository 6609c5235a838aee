import { messageDetail } from '#shared/domain/messages/detail';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { idParams } from '#shared/schemas/common';

export const handler = httpOperation({ params: idParams }, async ({ params, workspace }) => ok(await messageDetail(workspace.id, params.id)));
