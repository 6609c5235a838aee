import * as v from 'valibot';
import { isKnownTimeZone } from '#shared/domain/campaigns/send-window';
import { WEEKDAYS } from '#shared/records/campaign';
import { businessNumber, droppable, languageCode, pageParams, phone, templateButtons, templateHeader, text, uuid, variables } from '#shared/schemas/common';

/** An ISO-8601 time with a time zone. */
const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;
const clock = () => v.pipe(v.string(), v.regex(HH_MM, 'Must be a time of day as HH:MM, 00:00 to 23:59'));

/** Contract §15: when messages may go, in a zone (a contact's own `custom_fields.time_zone` wins). */
export const sendWindow = () =>
  v.pipe(
    v.strictObject({
      start: clock(),
      end: clock(),
      days: v.pipe(
        v.array(v.picklist(WEEKDAYS, `Must be one of ${WEEKDAYS.join(', ')}`)),
        v.minLength(1, 'At least one day'),
        v.check((days) => new Set(days).size === days.length, 'Each day at most once'),
      ),
      time_zone: v.pipe(v.string(), v.check(isKnownTimeZone, 'Must be an IANA time zone, e.g. Europe/Lisbon')),
    }),
    v.forward(
      v.partialCheck([['start'], ['end']], (window) => window.start !== window.end, 'Must differ from start (a window past midnight ends before it starts)'),
      ['end'],
    ),
  );

/** Contract §20: a decimal string (or a JSON number) of at most 4 decimals, above 0, in the currency of the workspace's rate card; kept as a decimal string. */
export const maxCost = () =>
  v.pipe(
    v.union([v.string(), v.number()], 'Must be an amount such as "250.00"'),
    v.transform((amount) => (typeof amount === 'number' ? String(amount) : amount.trim())),
    v.regex(/^\d{1,9}(\.\d{1,4})?$/, 'Must be an amount with at most 4 decimals, such as "250.00"'),
    v.check((amount) => /[1-9]/.test(amount), 'Must be above 0'),
    v.transform((amount) => {
      const [whole, fraction = ''] = amount.split('.');
      return `${Number(whole)}.${fraction.padEnd(4, '0')}`;
    }),
    v.description(
      "The campaign's budget in the currency of the workspace's rate card: before a message would take what its sends cost (billed, and estimated for those in flight) over it, the campaign pauses with `paused_reason.code` `budget_reached` (contract §20)",
    ),
    v.examples(['250.0000']),
  );

/** POST /api/v1/campaigns */
export const createCampaignBody = /* @__PURE__ */ droppable(() =>
  v.pipe(
    v.object({
      name: text(200),
      template_id: v.optional(text(100)),
      template_name: v.optional(text(512)),
      language: v.optional(languageCode()),
      scheduled_at: v.optional(
        v.pipe(
          v.string(),
          v.regex(ISO_8601, 'Must be an ISO-8601 time with a time zone, e.g. 2026-12-01T09:00:00Z'),
          v.check((at) => !Number.isNaN(Date.parse(at)), 'Must be a real date and time'),
          v.check((at) => Date.parse(at) > Date.now(), 'Must be in the future'),
          v.transform((at) => new Date(at).toISOString()),
        ),
      ),
      send_window: v.optional(sendWindow()),
      from: v.optional(businessNumber()),
      max_cost: v.optional(maxCost()),
    }),
    v.forward(
      v.partialCheck(
        [['template_id'], ['template_name']],
        (input) => Boolean(input.template_id || input.template_name),
        'template_id or template_name is required',
      ),
      ['template_name'],
    ),
  ),
);

const segmentTags = () =>
  v.pipe(
    v.array(v.pipe(v.string(), v.trim(), v.minLength(1, 'Tags must not be empty'), v.maxLength(50, 'Tags must be at most 50 characters'))),
    v.maxLength(50, 'At most 50 tags'),
  );

/** Custom-field equality: the values a contact's custom field can hold. */
const segmentCustomFields = () =>
  v.pipe(
    v.record(
      v.pipe(v.string(), v.minLength(1, 'Field names must not be empty'), v.maxLength(100, 'Field names must be at most 100 characters')),
      v.union(
        [v.pipe(v.string(), v.maxLength(1000, 'Values must be at most 1000 characters')), v.number(), v.boolean()],
        'Must be a string, number or boolean',
      ),
    ),
    v.check((fields) => Object.keys(fields).length <= 50, 'At most 50 custom fields'),
  );

/** Contract §15. Strict: a misspelt criterion (say `exclude_tag`) must not be dropped silently and widen the audience. */
const segment = () =>
  v.strictObject({
    tags_any: v.optional(segmentTags()),
    tags_all: v.optional(segmentTags()),
    exclude_tags: v.optional(segmentTags()),
    custom_fields: v.optional(segmentCustomFields()),
  });

/** A segment selects contacts only through these; `exclude_tags` alone only narrows the other sources. */
const selectsContacts = (given: v.InferOutput<ReturnType<typeof segment>> | undefined) =>
  Boolean(given && (given.tags_any?.length || given.tags_all?.length || Object.keys(given.custom_fields ?? {}).length));

/** POST /api/v1/campaigns/{id}/launch */
export const launchCampaignBody = /* @__PURE__ */ droppable(() =>
  v.pipe(
    v.object({
      recipients: v.optional(
        v.pipe(
          v.array(
            v.object({
              phone: phone(),
              name: v.optional(v.pipe(v.string(), v.maxLength(200, 'Must be at most 200 characters'))),
              variables: v.optional(variables(true)),
              header: v.optional(templateHeader(true)),
              buttons: v.optional(templateButtons(true)),
            }),
          ),
          v.maxLength(10_000, 'At most 10,000 recipients per launch'),
        ),
      ),
      contact_ids: v.optional(v.pipe(v.array(uuid()), v.maxLength(10_000, 'At most 10,000 contact ids'))),
      group_ids: v.optional(v.pipe(v.array(uuid()), v.maxLength(100, 'At most 100 group ids'))),
      segment: v.optional(segment()),
      template_variables: v.optional(variables(true)),
      template_header: v.optional(templateHeader(true)),
      template_buttons: v.optional(templateButtons(true)),
      send_window: v.optional(sendWindow()),
      from: v.optional(businessNumber()),
      max_cost: v.optional(maxCost()),
    }),
    v.forward(
      v.partialCheck(
        [['recipients'], ['contact_ids'], ['group_ids'], ['segment']],
        (input) => Boolean(input.recipients?.length || input.contact_ids?.length || input.group_ids?.length || selectsContacts(input.segment)),
        'At least one of recipients, contact_ids and group_ids must be non-empty, or a segment must have tags_any, tags_all or custom_fields',
      ),
      ['recipients'],
    ),
  ),
);

/** GET /api/v1/campaigns */
export const listCampaignsQuery = /* @__PURE__ */ droppable(() => v.object(pageParams));

/** POST /api/v1/campaigns/{id}/test: 1–5 numbers (contract §15). */
export const testCampaignBody = /* @__PURE__ */ droppable(() =>
  v.object({
    phones: v.pipe(v.array(phone()), v.minLength(1, 'At least 1 phone number'), v.maxLength(5, 'At most 5 phone numbers')),
    from: v.optional(businessNumber()),
  }),
);

/** POST /api/v1/campaigns/{id}/resume: a higher budget (contract §20). */
export const resumeCampaignBody = /* @__PURE__ */ droppable(() => v.object({ max_cost: maxCost() }));
