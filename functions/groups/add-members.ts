import { addMembers } from '#shared/domain/groups/members';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { AddGroupMembers } from '#shared/schemas/operations/groups';

export const handler = httpOperation(AddGroupMembers.request, async ({ params, body, workspace }) =>
  ok(await addMembers(workspace.id, params.id, body.contact_ids)),
);
