import { removeMembers } from '#shared/domain/groups/members';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { contactIdsBody, idParams } from '#shared/http/schemas';

export const handler = httpOperation({ params: idParams, body: contactIdsBody }, async ({ params, body, workspace }) =>
  ok(await removeMembers(workspace.id, params.id, body.contact_ids)),
);
