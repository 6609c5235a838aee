import * as v from 'valibot';
import { listMembers } from '#shared/domain/groups/members';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { idParams, pageParams } from '#shared/http/schemas';

const query = v.object(pageParams);

export const handler = httpOperation({ params: idParams, query }, async ({ params, query, workspace }) => {
  const { data, pagination } = await listMembers(workspace.id, params.id, query.page, query.pageSize);
  return ok(data, { pagination });
});
