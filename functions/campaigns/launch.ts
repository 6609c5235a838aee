import { launchCampaign } from '#shared/domain/campaigns/launch';
import { httpOperation } from '#shared/http/operation';
import { launchCampaignBody } from '#shared/schemas/campaigns';
import { accepted } from '#shared/http/responses';
import { idParams } from '#shared/schemas/common';

export const handler = httpOperation(
  { params: idParams, body: launchCampaignBody, idempotentAs: 'POST /api/v1/campaigns/{id}/launch' },
  async ({ params, body, workspace, resourceId }) => accepted(await launchCampaign(workspace.id, params.id, body, resourceId)),
);
