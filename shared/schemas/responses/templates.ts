/** What the template operations answer (contract §6, §12). */
import * as v from 'valibot';
import { count } from '#shared/schemas/responses/common';
import { TEMPLATE_STATUSES } from '#shared/records/template';

const placeholders = () => v.pipe(v.array(v.string()), v.description('Placeholder names in order of first appearance: "1", "2", … or named'));

/** A template as synced from the platform; category, header format and button types are the platform's words. */
export const template = v.object({
  id: v.pipe(v.string(), v.description("The platform's template id")),
  waba_id: v.pipe(v.string(), v.description('The WhatsApp Business Account it belongs to: sends from numbers of that account may use it')),
  name: v.string(),
  language: v.string(),
  category: v.pipe(v.string(), v.examples(['MARKETING', 'UTILITY', 'AUTHENTICATION'])),
  status: v.picklist(TEMPLATE_STATUSES),
  content: v.pipe(v.string(), v.description('The body text, with its placeholders')),
  parameter_format: v.picklist(['POSITIONAL', 'NAMED']),
  placeholders: placeholders(),
  header: v.nullable(
    v.object({
      format: v.pipe(v.string(), v.examples(['TEXT', 'IMAGE', 'VIDEO', 'DOCUMENT', 'LOCATION'])),
      text: v.nullable(v.string()),
      placeholders: placeholders(),
    }),
  ),
  footer: v.nullable(v.string()),
  buttons: v.array(
    v.object({
      index: count(),
      type: v.pipe(v.string(), v.examples(['QUICK_REPLY', 'URL', 'PHONE_NUMBER', 'COPY_CODE', 'OTP', 'FLOW', 'CATALOG'])),
      text: v.string(),
      url: v.nullable(v.string()),
      placeholders: placeholders(),
    }),
  ),
});

export const templateSync = v.object({ synced_count: count() });

/** DELETE /api/v1/templates/{id} */
export const templateDeletion = v.object({
  id: v.pipe(v.string(), v.description("The platform's template id named in the path")),
  name: v.string(),
  languages: v.pipe(v.array(v.string()), v.description('The languages deleted')),
  deleted: v.literal(true),
});
