import { campaignView } from '#shared/domain/campaigns/campaign';
import { moveCampaign } from '#shared/domain/campaigns/lifecycle';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { nowIso } from '#shared/time';
import { CancelCampaign } from '#shared/schemas/operations/campaigns';

/** Stops further sends: the fan-out stops, and the send worker fails each unsent message with `campaign_cancelled`. */
export const handler = httpOperation(CancelCampaign.request, async ({ params, workspace }) =>
  ok(campaignView(await moveCampaign(workspace.id, params.id, ['draft', 'scheduled', 'running'], { status: 'cancelled', cancelled_at: nowIso() }))),
);
