import { detailView } from '#shared/domain/messages/message';
import { requireMessage } from '#shared/domain/messages/list';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { idParams } from '#shared/schemas/common';

export const handler = httpOperation({ params: idParams }, async ({ params, workspace }) => {
  return ok(detailView(await requireMessage(workspace.id, params.id)));
});
