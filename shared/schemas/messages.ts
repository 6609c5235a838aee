import * as v from 'valibot';
import { MESSAGE_STATUSES } from '#shared/domain/messages/message';
import { languageCode, pageParams, phone, templateButtons, templateHeader, templateName, uuid, variables } from '#shared/schemas/common';

/** POST /api/v1/messages */
export const sendMessageBody = v.pipe(
  v.object({
    to: phone(),
    template: v.optional(v.union([templateName(), v.object({ name: templateName(), language: v.optional(languageCode()) })], 'Must be a template name or { name, language }')),
    variables: v.optional(variables()),
    header: v.optional(templateHeader()),
    buttons: v.optional(templateButtons()),
    text: v.optional(v.pipe(v.string(), v.check((t) => t.trim().length > 0, 'Must not be empty'), v.maxLength(4096, 'Must be at most 4096 characters'))),
    language: v.optional(languageCode()),
  }),
  v.forward(
    v.partialCheck([['template'], ['text']], (input) => (input.template === undefined) !== (input.text === undefined), 'Exactly one of template and text is required'),
    ['template'],
  ),
  v.forward(
    v.partialCheck([['text'], ['variables']], (input) => input.text === undefined || input.variables === undefined, 'Variables apply to template messages only'),
    ['variables'],
  ),
  v.forward(
    v.partialCheck([['text'], ['header']], (input) => input.text === undefined || input.header === undefined, 'A header applies to template messages only'),
    ['header'],
  ),
  v.forward(
    v.partialCheck([['text'], ['buttons']], (input) => input.text === undefined || input.buttons === undefined, 'Buttons apply to template messages only'),
    ['buttons'],
  ),
);

/** GET /api/v1/messages */
export const listMessagesQuery = v.object({
  ...pageParams,
  status: v.optional(v.picklist(MESSAGE_STATUSES, `Must be one of ${MESSAGE_STATUSES.join(', ')}`)),
  phone: v.optional(phone()),
  direction: v.optional(v.picklist(['outbound', 'inbound'], 'Must be outbound or inbound')),
  campaign_id: v.optional(uuid()),
  cursor: v.optional(v.pipe(v.string(), v.maxLength(4096, 'Not a cursor from this list'))),
});
