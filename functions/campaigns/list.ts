import { listCampaigns } from '#shared/domain/campaigns/lifecycle';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { ListCampaigns } from '#shared/schemas/operations/campaigns';

export const handler = httpOperation(ListCampaigns.request, async ({ query, workspace }) => {
  const { data, pagination } = await listCampaigns(workspace.id, query.page, query.pageSize);
  return ok(data, { pagination });
});
