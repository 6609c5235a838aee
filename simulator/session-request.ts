import { whatsappErrors } from '#simulator/whatsapp-errors';
import { checkFlowAction } from '#simulator/flow-request';
import { CALL_PERMISSION_REQUEST, checkCallPermissionRequestObject } from '#simulator/call-permission-request';
import { checkContactInfoRequestObject, REQUEST_CONTACT_INFO } from '#simulator/contact-info-request';

/**
 * The session message types of a `POST /{phone_number_id}/messages` body, checked as the Cloud API
 * checks them (docs/platform-requests.md): a missing or malformed field is 100, a value outside the
 * platform's limits (too many buttons, a title too long, duplicate ids) is 131009.
 */
export const SESSION_TYPES = ['text', 'image', 'video', 'audio', 'document', 'sticker', 'location', 'interactive', 'reaction'] as const;
export type SessionType = (typeof SESSION_TYPES)[number];

const invalid = whatsappErrors.invalidParameter;
const notValid = whatsappErrors.parameterValueNotValid;
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function requiredString(value: unknown, where: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw invalid(`The parameter ${where} is required and must be a non-empty string.`);
  return value;
}

function limited(value: unknown, where: string, max: number): string {
  const text = requiredString(value, where);
  if (text.length > max) throw notValid(`${where} length invalid. Min length: 1, Max length: ${max}.`);
  return text;
}

const MAX_CAPTION = 1024;
const MAX_TEXT_BODY = 4096;

function media(type: SessionType, value: unknown): void {
  if (!isObject(value)) throw invalid(`The parameter ${type} is required.`);
  if ((value.link === undefined) === (value.id === undefined)) throw invalid(`Param ${type} must have exactly one of link and id.`);
  if (value.link !== undefined && (typeof value.link !== 'string' || !/^https?:\/\/\S+$/.test(value.link)))
    throw invalid(`Param ${type}['link'] must be a valid URL.`);
  if (value.id !== undefined) requiredString(value.id, `${type}['id']`);
  if (value.caption !== undefined) {
    if (type === 'audio' || type === 'sticker') throw invalid(`Param ${type}['caption'] is not supported for ${type} messages.`);
    limited(value.caption, `${type}['caption']`, MAX_CAPTION);
  }
  if (value.filename !== undefined) {
    if (type !== 'document') throw invalid(`Param ${type}['filename'] is only supported for document messages.`);
    requiredString(value.filename, `${type}['filename']`);
  }
}

function location(value: unknown): void {
  if (!isObject(value)) throw invalid('The parameter location is required.');
  const inRange = (n: unknown, limit: number) => typeof n === 'number' && Number.isFinite(n) && Math.abs(n) <= limit;
  if (!inRange(value.latitude, 90)) throw invalid("Param location['latitude'] must be a number between -90 and 90.");
  if (!inRange(value.longitude, 180)) throw invalid("Param location['longitude'] must be a number between -180 and 180.");
}

function interactiveText(part: unknown, where: string, max: number): void {
  if (!isObject(part)) throw invalid(`The parameter ${where} is required.`);
  limited(part.text, `${where}['text']`, max);
}

function replyButtons(action: Record<string, unknown>): void {
  const buttons = action.buttons;
  if (!Array.isArray(buttons) || !buttons.length) throw invalid("The parameter interactive['action']['buttons'] is required.");
  if (buttons.length > 3) throw notValid(`Number of buttons invalid. Min: 1, Max: 3. Got: ${buttons.length}.`);
  const titles: string[] = [];
  const ids = buttons.map((button, i) => {
    const where = `interactive['action']['buttons'][${i}]`;
    if (!isObject(button) || button.type !== 'reply' || !isObject(button.reply))
      throw invalid(`Param ${where} must be { type: "reply", reply: { id, title } }.`);
    titles.push(limited(button.reply.title, `${where}['reply']['title']`, 20));
    return limited(button.reply.id, `${where}['reply']['id']`, 256);
  });
  if (new Set(ids).size !== ids.length) throw notValid('Button ids must be unique.');
  if (new Set(titles).size !== titles.length) throw notValid('Button titles must be unique.');
}

function listSections(action: Record<string, unknown>): void {
  limited(action.button, "interactive['action']['button']", 20);
  const sections = action.sections;
  if (!Array.isArray(sections) || !sections.length) throw invalid("The parameter interactive['action']['sections'] is required.");
  if (sections.length > 10) throw notValid(`Number of sections invalid. Min: 1, Max: 10. Got: ${sections.length}.`);
  const ids: string[] = [];
  sections.forEach((section, s) => {
    const where = `interactive['action']['sections'][${s}]`;
    if (!isObject(section) || !Array.isArray(section.rows) || !section.rows.length) throw invalid(`The parameter ${where}['rows'] is required.`);
    if (section.title !== undefined || sections.length > 1) limited(section.title, `${where}['title']`, 24);
    section.rows.forEach((row, r) => {
      const at = `${where}['rows'][${r}]`;
      if (!isObject(row)) throw invalid(`Param ${at} must be an object.`);
      ids.push(limited(row.id, `${at}['id']`, 200));
      limited(row.title, `${at}['title']`, 24);
      if (row.description !== undefined) limited(row.description, `${at}['description']`, 72);
    });
  });
  if (ids.length > 10) throw notValid(`Total row count invalid. Max: 10. Got: ${ids.length}.`);
  if (new Set(ids).size !== ids.length) throw notValid('Row ids must be unique.');
}

function interactive(value: unknown): void {
  if (!isObject(value)) throw invalid('The parameter interactive is required.');
  if (value.type === CALL_PERMISSION_REQUEST) return checkCallPermissionRequestObject(value);
  if (value.type === REQUEST_CONTACT_INFO) return checkContactInfoRequestObject(value);
  if (value.type !== 'button' && value.type !== 'list' && value.type !== 'flow')
    throw invalid(
      `Param interactive['type'] must be one of {button, list, flow, ${CALL_PERMISSION_REQUEST}, ${REQUEST_CONTACT_INFO}} in this simulator - got "${String(value.type)}".`,
    );
  interactiveText(value.body, "interactive['body']", value.type === 'list' ? 4096 : 1024);
  if (value.header !== undefined) {
    if (!isObject(value.header) || value.header.type !== 'text')
      throw invalid('Param interactive[\'header\'] must be { type: "text", text } in this simulator.');
    interactiveText(value.header, "interactive['header']", 60);
  }
  if (value.footer !== undefined) interactiveText(value.footer, "interactive['footer']", 60);
  if (!isObject(value.action)) throw invalid("The parameter interactive['action'] is required.");
  if (value.type === 'button') replyButtons(value.action);
  else if (value.type === 'flow') checkFlowAction(value.action);
  else listSections(value.action);
}

function reaction(value: unknown): void {
  if (!isObject(value)) throw invalid('The parameter reaction is required.');
  requiredString(value.message_id, "reaction['message_id']");
  if (typeof value.emoji !== 'string') throw invalid("The parameter reaction['emoji'] is required.");
}

function text(value: unknown): void {
  if (!isObject(value)) throw invalid('The parameter text is required.');
  const body = requiredString(value.body, "text['body']");
  if (body.length > MAX_TEXT_BODY) throw invalid(`Param text['body'] must be at most ${MAX_TEXT_BODY} characters long.`);
  if (value.preview_url !== undefined && typeof value.preview_url !== 'boolean') throw invalid("Param text['preview_url'] must be a boolean.");
}

/** Checks the body's object for its session type; throws the platform's error. */
export function checkSessionObject(type: SessionType, value: unknown): void {
  if (type === 'text') text(value);
  else if (type === 'location') location(value);
  else if (type === 'interactive') interactive(value);
  else if (type === 'reaction') reaction(value);
  else media(type, value);
}

/** `context: { message_id }` of a reply. */
export function checkContext(value: unknown): { message_id: string } | undefined {
  if (value === undefined) return undefined;
  if (!isObject(value)) throw invalid('Param context must be an object { message_id }.');
  return { message_id: requiredString(value.message_id, "context['message_id']") };
}
