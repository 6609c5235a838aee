import { whatsappErrors } from '#simulator/whatsapp-errors';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const invalid = whatsappErrors.invalidParameter;

/** The interactive type of a call permission request (docs/platform-calling.md §2.1). */
export const CALL_PERMISSION_REQUEST = 'call_permission_request';

const MAX_BODY = 1024;

/**
 * `interactive: { type: "call_permission_request", action: { name: "call_permission_request" }, body? }`,
 * checked as Meta's "Obtain user call permissions" describes it: `body` is optional, "a header and
 * footer are not supported".
 */
export function checkCallPermissionRequestObject(value: Json): void {
  if (!isObject(value.action) || value.action.name !== CALL_PERMISSION_REQUEST)
    throw invalid(`Param interactive['action'] must be { name: "${CALL_PERMISSION_REQUEST}" }.`);
  if (value.header !== undefined || value.footer !== undefined) throw invalid('A call permission request takes no header and no footer.');
  if (value.body === undefined) return;
  const text = isObject(value.body) ? value.body.text : undefined;
  if (typeof text !== 'string' || !text.trim()) throw invalid("The parameter interactive['body']['text'] is required and must be a non-empty string.");
  if (text.length > MAX_BODY)
    throw whatsappErrors.parameterValueNotValid(`interactive['body']['text'] length invalid. Min length: 1, Max length: ${MAX_BODY}.`);
}
