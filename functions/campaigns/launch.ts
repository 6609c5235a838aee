import * as v from 'valibot';
import { launchCampaign } from '#shared/domain/campaigns/launch';
import { httpOperation } from '#shared/http/operation';
import { accepted } from '#shared/http/responses';
import { idParams, phone, uuid } from '#shared/http/schemas';
import { variables } from '#shared/http/variables-schema';

const body = v.pipe(
  v.object({
    recipients: v.optional(
      v.pipe(
        v.array(v.object({ phone: phone(), name: v.optional(v.pipe(v.string(), v.maxLength(200, 'Must be at most 200 characters'))), variables: v.optional(variables(true)) })),
        v.maxLength(10_000, 'At most 10,000 recipients per launch'),
      ),
    ),
    contact_ids: v.optional(v.pipe(v.array(uuid()), v.maxLength(10_000, 'At most 10,000 contact ids'))),
    group_ids: v.optional(v.pipe(v.array(uuid()), v.maxLength(100, 'At most 100 group ids'))),
    template_variables: v.optional(variables(true)),
  }),
  v.forward(
    v.partialCheck(
      [['recipients'], ['contact_ids'], ['group_ids']],
      (input) => Boolean(input.recipients?.length || input.contact_ids?.length || input.group_ids?.length),
      'At least one of recipients, contact_ids and group_ids must be non-empty',
    ),
    ['recipients'],
  ),
);

export const handler = httpOperation(
  { params: idParams, body, idempotentAs: 'POST /api/v1/campaigns/{id}/launch' },
  async ({ params, body, workspace, resourceId }) => accepted(await launchCampaign(workspace.id, params.id, body, resourceId)),
);
