import { launchCampaign } from '#shared/domain/campaigns/launch';
import { httpOperation } from '#shared/http/operation';
import { accepted } from '#shared/http/responses';
import { LaunchCampaign } from '#shared/schemas/operations/campaigns';

export const handler = httpOperation(LaunchCampaign.request, async ({ params, body, workspace, resourceId }) =>
  accepted(await launchCampaign(workspace, params.id, body, resourceId)),
);
