import { listMembers } from '#shared/domain/groups/members';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { ListGroupMembers } from '#shared/schemas/operations/groups';

export const handler = httpOperation(ListGroupMembers.request, async ({ params, query, workspace }) => {
  const { data, pagination } = await listMembers(workspace.id, params.id, query.page, query.pageSize);
  return ok(data, { pagination });
});
