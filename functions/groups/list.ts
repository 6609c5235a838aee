import * as v from 'valibot';
import { listGroups } from '#shared/domain/groups/groups';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { pageParams } from '#shared/http/schemas';

const query = v.object(pageParams);

export const handler = httpOperation({ query }, async ({ query, workspace }) => {
  const { data, pagination } = await listGroups(workspace.id, query.page, query.pageSize);
  return ok(data, { pagination });
});
