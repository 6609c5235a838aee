import { looksLikeGroupId } from '#simulator/groups';
import type { SimulatedTemplate } from '#simulator/templates';
import { whatsappErrors } from '#simulator/whatsapp-errors';

/**
 * What `POST /{phone_number_id}/messages` takes for `recipient_type: "group"` (docs/platform-groups.md
 * §2): `to` is a group id, and only text, media (image, video, audio, document) and text- or
 * media-based templates go to a group. Interactive, reaction, location, contacts and sticker messages
 * and authentication templates are refused with 131009, the platform's "Parameter value is not valid"
 * (§2 and §0 name what is not supported but no code; 131009 is the code of a value outside the
 * platform's limits, docs/platform-requests.md).
 */
export const GROUP_MESSAGE_TYPES = ['text', 'image', 'video', 'audio', 'document', 'template'] as const;

const RECIPIENT_TYPES = ['individual', 'group'] as const;
export type RecipientType = (typeof RECIPIENT_TYPES)[number];

const invalid = whatsappErrors.invalidParameter;

/** `recipient_type`: `individual` (the default) or `group`; anything else is 100. */
export function recipientTypeOf(value: unknown): RecipientType {
  if (value === undefined) return 'individual';
  if (!RECIPIENT_TYPES.includes(value as RecipientType)) throw invalid(`Param recipient_type must be one of {${RECIPIENT_TYPES.join(', ')}}.`);
  return value as RecipientType;
}

/**
 * The group a group send names in `to`, as given: something not shaped like a group id (a phone
 * number) is 100; whether the group exists is checked against the number's groups later (131041).
 */
export function groupRecipient(to: unknown): { input: string; waId: string } {
  if (to === undefined || to === null || to === '') throw invalid('The parameter to is required.');
  if (typeof to !== 'string') throw invalid('Param to must be a string.');
  if (!looksLikeGroupId(to)) throw invalid(`Param to must be a group ID for recipient_type group - got "${to}".`);
  return { input: to, waId: to };
}

/** Refuses a message type groups do not take. */
export function checkGroupMessageType(type: unknown): void {
  if (!GROUP_MESSAGE_TYPES.includes(type as (typeof GROUP_MESSAGE_TYPES)[number]))
    throw whatsappErrors.parameterValueNotValid(
      `Message type ${String(type)} is not supported for group messages. Supported: text, image, video, audio, document, and text- or media-based templates.`,
    );
}

/** Refuses a template groups do not take: authentication templates, and templates that are neither text- nor media-based (a location header). */
export function checkGroupTemplate(template: SimulatedTemplate): void {
  if (template.category === 'AUTHENTICATION') throw whatsappErrors.parameterValueNotValid('Authentication templates are not supported for group messages.');
  const header = template.components.find((c) => c.type === 'HEADER');
  if (header && 'format' in header && header.format === 'LOCATION')
    throw whatsappErrors.parameterValueNotValid('Only text-based and media-based templates are supported for group messages.');
}
