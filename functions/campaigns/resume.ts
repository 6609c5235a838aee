import { campaignView } from '#shared/domain/campaigns/campaign';
import { resumeCampaign } from '#shared/domain/campaigns/budget';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { ResumeCampaign } from '#shared/schemas/operations/campaigns';

/** A campaign paused by its budget goes on with a higher one (contract §20). */
export const handler = httpOperation(ResumeCampaign.request, async ({ params, body, workspace }) =>
  ok(campaignView(await resumeCampaign(workspace.id, params.id, body.max_cost))),
);
