import { sendCampaignTest } from '#shared/domain/campaigns/test-send';
import { httpOperation } from '#shared/http/operation';
import { accepted } from '#shared/http/responses';
import { TestCampaign } from '#shared/schemas/operations/campaigns';

export const handler = httpOperation(TestCampaign.request, async ({ params, body, workspace }) =>
  accepted(await sendCampaignTest(workspace, params.id, body.phones, body.from)),
);
