import { campaignView } from '#shared/domain/campaigns/campaign';
import { createCampaign } from '#shared/domain/campaigns/lifecycle';
import { senderOf } from '#shared/domain/numbers/sender';
import { httpOperation } from '#shared/http/operation';
import { created } from '#shared/http/responses';
import { CreateCampaign } from '#shared/schemas/operations/campaigns';

export const handler = httpOperation(CreateCampaign.request, async ({ body, workspace }) =>
  created(campaignView(await createCampaign(workspace, await senderOf(workspace, body.from), body))),
);
