import { TEMPLATES, type SimulatedTemplate } from '#simulator/templates';
import { whatsappErrors } from '#simulator/whatsapp-errors';

/** A template parameter as the simulator accepts it (positional text parameters only). */
export interface TextParameter {
  type: 'text';
  text: string;
}

export interface TemplateComponent {
  type: string;
  parameters?: TextParameter[];
}

export interface TemplatePayload {
  name: string;
  language: { code: string; policy?: string };
  components?: TemplateComponent[];
}

export interface TextPayload {
  body: string;
  preview_url?: boolean;
}

/** A send request that passed validation. `to` is the recipient as given; `waId` is its digits. */
export interface SendRequest {
  to: string;
  waId: string;
  type: 'template' | 'text';
  template?: TemplatePayload;
  text?: TextPayload;
  biz_opaque_callback_data?: string;
  /** The approved template the message uses (template messages only). */
  resolvedTemplate?: SimulatedTemplate;
}

export const MAX_TEXT_BODY = 4096;
export const MAX_CALLBACK_DATA = 512;

const invalid = whatsappErrors.invalidParameter;
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Validates a `POST /{phone_number_id}/messages` body as the Cloud API does and resolves its template.
 * Throws the platform's error: 100 for a missing or malformed field, 132001 for an unknown template or
 * language, 132000 for a parameter count that differs from the template's distinct `{{n}}` placeholders.
 */
export function parseSendRequest(body: unknown): SendRequest {
  if (!isObject(body)) throw invalid('The request body must be a JSON object.');
  if (body.messaging_product === undefined) throw invalid('The parameter messaging_product is required.');
  if (body.messaging_product !== 'whatsapp') throw invalid('Param messaging_product must be "whatsapp".');
  if (body.recipient_type !== undefined && body.recipient_type !== 'individual') {
    throw invalid('Param recipient_type must be "individual".');
  }
  const to = parseRecipient(body.to);
  const callbackData = parseCallbackData(body.biz_opaque_callback_data);
  // As on the platform, `type` defaults to text.
  const type = body.type ?? 'text';
  if (type === 'text') {
    return { to: to.input, waId: to.waId, type, text: parseText(body.text), ...callbackData };
  }
  if (type === 'template') {
    const template = parseTemplate(body.template);
    const resolvedTemplate = resolveTemplate(template);
    return { to: to.input, waId: to.waId, type, template, resolvedTemplate, ...callbackData };
  }
  throw invalid(`Param type must be one of {text, template} in this simulator - got "${String(type)}".`);
}

function parseRecipient(to: unknown): { input: string; waId: string } {
  if (to === undefined || to === null || to === '') throw invalid('The parameter to is required.');
  if (typeof to !== 'string') throw invalid('Param to must be a string.');
  // The platform accepts a phone number with +, spaces, dashes and brackets, and answers its digits as wa_id.
  if (!/^\+?[\d\s().-]+$/.test(to)) throw invalid(`Param to must be a phone number - got "${to}".`);
  const waId = to.replace(/\D/g, '');
  if (waId.length < 5 || waId.length > 15) throw invalid(`Param to must be a phone number of 5 to 15 digits - got "${to}".`);
  return { input: to, waId };
}

function parseCallbackData(value: unknown): { biz_opaque_callback_data?: string } {
  if (value === undefined) return {};
  if (typeof value !== 'string') throw invalid('Param biz_opaque_callback_data must be a string.');
  if (value.length > MAX_CALLBACK_DATA) throw invalid(`Param biz_opaque_callback_data must be at most ${MAX_CALLBACK_DATA} characters long.`);
  return { biz_opaque_callback_data: value };
}

function parseText(text: unknown): TextPayload {
  if (!isObject(text)) throw invalid('The parameter text is required.');
  const { body, preview_url } = text;
  if (typeof body !== 'string' || body.trim() === '') throw invalid("The parameter text['body'] is required and must be a non-empty string.");
  if (body.length > MAX_TEXT_BODY) throw invalid(`Param text['body'] must be at most ${MAX_TEXT_BODY} characters long.`);
  if (preview_url !== undefined && typeof preview_url !== 'boolean') throw invalid("Param text['preview_url'] must be a boolean.");
  return { body, ...(preview_url !== undefined && { preview_url }) };
}

function parseTemplate(template: unknown): TemplatePayload {
  if (!isObject(template)) throw invalid('The parameter template is required.');
  const { name, language, components } = template;
  if (typeof name !== 'string' || !name) throw invalid("The parameter template['name'] is required.");
  if (!isObject(language) || typeof language.code !== 'string' || !language.code) {
    throw invalid("The parameter template['language']['code'] is required.");
  }
  if (language.policy !== undefined && language.policy !== 'deterministic') {
    throw invalid("Param template['language']['policy'] must be \"deterministic\".");
  }
  const lang = { code: language.code, ...(language.policy !== undefined && { policy: 'deterministic' }) };
  if (components === undefined) return { name, language: lang };
  if (!Array.isArray(components)) throw invalid("Param template['components'] must be an array.");
  return { name, language: lang, components: components.map(parseComponent) };
}

function parseComponent(component: unknown, index: number): TemplateComponent {
  const where = `template['components'][${index}]`;
  if (!isObject(component) || typeof component.type !== 'string') throw invalid(`The parameter ${where}['type'] is required.`);
  const type = component.type.toLowerCase();
  if (!['header', 'body', 'button'].includes(type)) {
    throw invalid(`Param ${where}['type'] must be one of {HEADER, BODY, BUTTON} - got "${component.type}".`);
  }
  if (component.parameters === undefined) return { type };
  if (!Array.isArray(component.parameters)) throw invalid(`Param ${where}['parameters'] must be an array.`);
  return { type, parameters: component.parameters.map((p, i) => parseParameter(p, `${where}['parameters'][${i}]`)) };
}

function parseParameter(parameter: unknown, where: string): TextParameter {
  if (!isObject(parameter) || typeof parameter.type !== 'string') throw invalid(`The parameter ${where}['type'] is required.`);
  if (parameter.type !== 'text') throw invalid(`Param ${where}['type'] must be "text" in this simulator - got "${parameter.type}".`);
  const { text } = parameter;
  if (typeof text !== 'string' || text === '') throw invalid(`The parameter ${where}['text'] is required and must be a non-empty string.`);
  // A real platform rule that often bites: no new lines, tabs or more than 4 consecutive spaces in a parameter.
  if (/[\n\t]| {5,}/.test(text)) throw invalid('Param text cannot have new-line/tab characters or more than 4 consecutive spaces.');
  return { type: 'text', text };
}

/** The distinct positional placeholders `{{n}}` of a template body. */
export const placeholderCount = (body: string): number => new Set(body.match(/\{\{\s*\d+\s*\}\}/g)?.map((p) => p.replace(/\s/g, ''))).size;

/**
 * The template the message uses. Unknown names, languages the template has no translation in, and
 * translations that are not APPROVED (PENDING, REJECTED, ...) all answer 132001: the platform only lets
 * approved translations be sent, and for the others it reports that the translation does not exist
 * (it has dedicated codes only for paused and disabled templates, 132015 and 132016, which the simulator's
 * list does not contain).
 */
function resolveTemplate(payload: TemplatePayload): SimulatedTemplate {
  const template = TEMPLATES.find((t) => t.name === payload.name && t.language === payload.language.code && t.status === 'APPROVED');
  if (!template) throw whatsappErrors.templateNotFound(payload.name, payload.language.code);

  const given: Record<string, number> = { body: 0, header: 0, button: 0 };
  for (const component of payload.components ?? []) given[component.type] += component.parameters?.length ?? 0;
  // The simulated templates have a body only: header and button parameters are always too many.
  const expected: Record<string, number> = { body: placeholderCount(template.body), header: 0, button: 0 };
  for (const component of ['body', 'header', 'button']) {
    if (given[component] !== expected[component]) throw whatsappErrors.paramCountMismatch(component, given[component], expected[component]);
  }
  return template;
}
