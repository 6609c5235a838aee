import * as v from 'valibot';
import { campaignView } from '#shared/domain/campaigns/campaign';
import { createCampaign } from '#shared/domain/campaigns/store';
import { httpOperation } from '#shared/http/operation';
import { created } from '#shared/http/responses';
import { text } from '#shared/http/schemas';

const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

const body = v.pipe(
  v.object({
    name: text(200),
    template_id: v.optional(text(100)),
    template_name: v.optional(text(512)),
    language: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z]{2,3}([_-][A-Za-z0-9]{2,4})?$/, 'Must be a language code such as en_US'))),
    scheduled_at: v.optional(
      v.pipe(
        v.string(),
        v.regex(ISO_8601, 'Must be an ISO-8601 time with a time zone, e.g. 2026-12-01T09:00:00Z'),
        v.check((at) => !Number.isNaN(Date.parse(at)), 'Must be a real date and time'),
        v.check((at) => Date.parse(at) > Date.now(), 'Must be in the future'),
        v.transform((at) => new Date(at).toISOString()),
      ),
    ),
  }),
  v.forward(
    v.partialCheck([['template_id'], ['template_name']], (input) => Boolean(input.template_id || input.template_name), 'template_id or template_name is required'),
    ['template_name'],
  ),
);

export const handler = httpOperation({ body }, async ({ body, workspace }) => created(campaignView(await createCampaign(workspace.id, workspace.plan, body))));
