import { listCalls } from '#shared/domain/calls/log';
import { callView } from '#shared/domain/calls/call';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { ListCalls } from '#shared/schemas/operations/calls';

export const handler = httpOperation(ListCalls.request, async ({ query, workspace }) => {
  const { calls, pagination } = await listCalls(workspace.id, query.page, query.pageSize);
  return ok(calls.map(callView), { pagination });
});
