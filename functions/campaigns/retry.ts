import { retryCampaign } from '#shared/domain/campaigns/retry';
import { httpOperation } from '#shared/http/operation';
import { accepted } from '#shared/http/responses';
import { RetryCampaign } from '#shared/schemas/operations/campaigns';

export const handler = httpOperation(RetryCampaign.request, async ({ params, workspace, resourceId }) =>
  accepted(await retryCampaign(workspace.id, params.id, resourceId)),
);
