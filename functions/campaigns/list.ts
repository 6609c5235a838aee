import * as v from 'valibot';
import { listCampaigns } from '#shared/domain/campaigns/store';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { pageParams } from '#shared/http/schemas';

const query = v.object(pageParams);

export const handler = httpOperation({ query }, async ({ query, workspace }) => {
  const { data, pagination } = await listCampaigns(workspace.id, query.page, query.pageSize);
  return ok(data, { pagination });
});
