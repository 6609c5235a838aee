import { campaignView } from '#shared/domain/campaigns/campaign';
import { createCampaign } from '#shared/domain/campaigns/lifecycle';
import { httpOperation } from '#shared/http/operation';
import { createCampaignBody } from '#shared/schemas/campaigns';
import { created } from '#shared/http/responses';

export const handler = httpOperation({ body: createCampaignBody }, async ({ body, workspace }) => created(campaignView(await createCampaign(workspace.id, workspace.plan, body))));
