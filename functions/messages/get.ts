import { detailView } from '#shared/domain/messages/message';
import { getMessage } from '#shared/domain/messages/store';
import { errors } from '#shared/errors';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { idParams } from '#shared/http/schemas';

export const handler = httpOperation({ params: idParams }, async ({ params, workspace }) => {
  const message = await getMessage(workspace.id, params.id, true);
  if (!message) throw errors.notFound('Message');
  return ok(detailView(message));
});
