import { resultsView } from '#shared/domain/campaigns/campaign';
import { requireCampaign } from '#shared/domain/campaigns/store';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { idParams } from '#shared/http/schemas';

export const handler = httpOperation({ params: idParams }, async ({ params, workspace }) => ok(resultsView(await requireCampaign(workspace.id, params.id))));
