import * as v from 'valibot';
import { TEMPLATE_CATEGORIES, TEMPLATE_STATUSES } from '#shared/records/template';
import { BUTTON_TYPES, COMPONENT_TYPES, HEADER_FORMATS } from '#shared/records/template-definition';
import { droppable, languageCode } from '#shared/schemas/common';

/** GET /api/v1/templates */
export const listTemplatesQuery = /* @__PURE__ */ droppable(() =>
  v.object({
    status: v.optional(v.picklist(TEMPLATE_STATUSES, `Must be one of ${TEMPLATE_STATUSES.join(', ')}`), 'APPROVED'),
    name: v.optional(v.string()),
    language: v.optional(v.string()),
    waba_id: v.optional(v.pipe(v.string(), v.regex(/^\d{1,30}$/, "Must be the platform's WhatsApp Business Account id (digits)"))),
  }),
);

/*
 * POST /api/v1/templates and PATCH /api/v1/templates/{id} (contract §18): the platform's own
 * template shape. The schema checks types and known values (400); the platform's rules on what
 * the texts say (lengths, placeholders, examples, buttons) are the domain's, answered with 422
 * (shared/domain/templates/rules.ts), so one answer lists every broken rule.
 */

const oneOf = <T extends readonly string[]>(values: T) => v.picklist(values, `Must be one of ${values.join(', ')}`);
const namedExamples = () => v.array(v.object({ param_name: v.string(), example: v.string() }));

const example = () =>
  v.pipe(
    v.looseObject({
      header_text: v.optional(v.array(v.string())),
      header_text_named_params: v.optional(namedExamples()),
      body_text: v.optional(v.array(v.array(v.string()))),
      body_text_named_params: v.optional(namedExamples()),
      header_url: v.optional(v.pipe(v.string(), v.description('A media header: an https URL of the example file, which the service downloads (at most 5 MB)'))),
      header_base64: v.optional(
        v.pipe(v.string(), v.description('A media header: the example file itself, base64 (at most 5 MB, and the request at most 1 MiB)')),
      ),
      mime_type: v.optional(v.pipe(v.string(), v.description('With `header_base64`: image/jpeg, image/png, video/mp4 or application/pdf'))),
    }),
    v.description("The platform's `example` block; a media header's example is `header_url` or `header_base64` with `mime_type`"),
  );

const button = () =>
  v.object({
    type: oneOf(BUTTON_TYPES),
    text: v.optional(v.string()),
    url: v.optional(v.string()),
    phone_number: v.optional(v.string()),
    example: v.optional(v.union([v.string(), v.array(v.string())], 'Must be a string or an array of strings')),
    otp_type: v.optional(v.string()),
  });

const component = () =>
  v.object({
    type: oneOf(COMPONENT_TYPES),
    format: v.optional(oneOf(HEADER_FORMATS)),
    text: v.optional(v.string()),
    example: v.optional(example()),
    buttons: v.optional(v.array(button())),
  });

const components = () => v.pipe(v.array(component()), v.minLength(1, 'At least one component (BODY)'), v.maxLength(4, 'At most 4 components'));

/** POST /api/v1/templates */
export const createTemplateBody = /* @__PURE__ */ droppable(() =>
  v.object({
    name: v.pipe(v.string(), v.description('Lowercase letters, digits and underscores, at most 512 characters')),
    language: languageCode(),
    category: oneOf(TEMPLATE_CATEGORIES),
    components: components(),
    parameter_format: v.optional(oneOf(['POSITIONAL', 'NAMED'] as const), 'POSITIONAL'),
    waba_id: v.optional(v.pipe(v.string(), v.description("The business account; the workspace's by default"))),
  }),
);

/** PATCH /api/v1/templates/{id} */
export const editTemplateBody = /* @__PURE__ */ droppable(() =>
  v.object({
    components: components(),
    category: v.optional(v.pipe(oneOf(TEMPLATE_CATEGORIES), v.description('Only while the template is not APPROVED'))),
  }),
);

/** A template's path id is the platform's (numeric), not a UUID. */
export const templateIdParams = /* @__PURE__ */ droppable(() =>
  v.object({ id: v.pipe(v.string(), v.regex(/^\d{1,32}$/, "Must be the platform's template id (digits)")) }),
);

/** DELETE /api/v1/templates/{id} */
export const deleteTemplateQuery = /* @__PURE__ */ droppable(() =>
  v.object({
    all_languages: v.optional(
      v.pipe(
        v.picklist(['true', 'false'], 'Must be true or false'),
        v.transform((value) => value === 'true'),
        // What the handler gets, and what the API document shows clients.
        v.boolean(),
      ),
      'false',
    ),
  }),
);
