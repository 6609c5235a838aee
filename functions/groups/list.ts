import { listGroups } from '#shared/domain/groups/groups';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { ListGroups } from '#shared/schemas/operations/groups';

export const handler = httpOperation(ListGroups.request, async ({ query, workspace }) => {
  const { data, pagination } = await listGroups(workspace.id, query.page, query.pageSize);
  return ok(data, { pagination });
});
