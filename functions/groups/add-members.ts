import { addMembers } from '#shared/domain/groups/members';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { groupMembersBody } from '#shared/schemas/groups';
import { idParams } from '#shared/schemas/common';

export const handler = httpOperation({ params: idParams, body: groupMembersBody }, async ({ params, body, workspace }) =>
  ok(await addMembers(workspace.id, params.id, body.contact_ids)),
);
