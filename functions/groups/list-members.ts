import { listMembers } from '#shared/domain/groups/members';
import { httpOperation } from '#shared/http/operation';
import { listGroupMembersQuery } from '#shared/schemas/groups';
import { ok } from '#shared/http/responses';
import { idParams } from '#shared/schemas/common';

export const handler = httpOperation({ params: idParams, query: listGroupMembersQuery }, async ({ params, query, workspace }) => {
  const { data, pagination } = await listMembers(workspace.id, params.id, query.page, query.pageSize);
  return ok(data, { pagination });
});
