import { listCampaigns } from '#shared/domain/campaigns/lifecycle';
import { httpOperation } from '#shared/http/operation';
import { listCampaignsQuery } from '#shared/schemas/campaigns';
import { ok } from '#shared/http/responses';

export const handler = httpOperation({ query: listCampaignsQuery }, async ({ query, workspace }) => {
  const { data, pagination } = await listCampaigns(workspace.id, query.page, query.pageSize);
  return ok(data, { pagination });
});
