import { whatsappErrors } from '#simulator/whatsapp-errors';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const invalid = whatsappErrors.invalidParameter;

/** The interactive type asking a customer to share their number (docs/platform-identity.md §4). */
export const REQUEST_CONTACT_INFO = 'request_contact_info';

const MAX_BODY = 1024;

/**
 * `interactive: { type: "request_contact_info", body: { text }, action: { name: "request_contact_info" } }`,
 * as the later implementations send it (the May 2026 page's `contact_request` type is its webhook's
 * `origin` value, docs/platform-identity.md §4).
 */
export function checkContactInfoRequestObject(value: Json): void {
  if (!isObject(value.action) || value.action.name !== REQUEST_CONTACT_INFO)
    throw invalid(`Param interactive['action'] must be { name: "${REQUEST_CONTACT_INFO}" }.`);
  const text = isObject(value.body) ? value.body.text : undefined;
  if (typeof text !== 'string' || !text.trim()) throw invalid("The parameter interactive['body']['text'] is required and must be a non-empty string.");
  if (text.length > MAX_BODY)
    throw whatsappErrors.parameterValueNotValid(`interactive['body']['text'] length invalid. Min length: 1, Max length: ${MAX_BODY}.`);
}
