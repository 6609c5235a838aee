import { listGroups } from '#shared/domain/groups/groups';
import { httpOperation } from '#shared/http/operation';
import { listGroupsQuery } from '#shared/schemas/groups';
import { ok } from '#shared/http/responses';

export const handler = httpOperation({ query: listGroupsQuery }, async ({ query, workspace }) => {
  const { data, pagination } = await listGroups(workspace.id, query.page, query.pageSize);
  return ok(data, { pagination });
});
