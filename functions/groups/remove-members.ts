import { removeMembers } from '#shared/domain/groups/members';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { RemoveGroupMembers } from '#shared/schemas/operations/groups';

export const handler = httpOperation(RemoveGroupMembers.request, async ({ params, body, workspace }) =>
  ok(await removeMembers(workspace.id, params.id, body.contact_ids)),
);
