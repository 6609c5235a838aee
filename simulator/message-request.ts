import { placeholdersOf, TEMPLATES, type GraphButton, type SimulatedTemplate } from '#simulator/templates';
import { whatsappErrors } from '#simulator/whatsapp-errors';
import { checkContext, checkSessionObject, SESSION_TYPES, type SessionType } from '#simulator/session-request';
import { platformWaId } from '#simulator/ids';
import { checkGroupMessageType, checkGroupTemplate, groupRecipient, recipientTypeOf } from '#simulator/group-send';

/** A template parameter as the platform takes it (text, media, location, quick-reply payload, coupon code). */
export interface TemplateParameter {
  type: string;
  [field: string]: unknown;
}

export interface TemplateComponent {
  type: string;
  sub_type?: string;
  index?: number;
  parameters?: TemplateParameter[];
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

/**
 * A send request that passed validation. `to` is the recipient as given (`to`, else `recipient`);
 * `waId` is the platform's id for it: the number's WhatsApp id, or the user id for a send by
 * `recipient` alone; `userId` is that user id.
 */
export interface SendRequest {
  to: string;
  waId: string;
  userId?: string;
  /** Set for a send to a group (`to` and `waId` are then the group id). */
  recipientType?: 'group';
  type: 'template' | SessionType;
  template?: TemplatePayload;
  text?: TextPayload;
  context?: { message_id: string };
  biz_opaque_callback_data?: string;
  /** The approved template the message uses (template messages only). */
  resolvedTemplate?: SimulatedTemplate;
}

export const MAX_CALLBACK_DATA = 512;

const invalid = whatsappErrors.invalidParameter;
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Validates a `POST /{phone_number_id}/messages` body as the Cloud API does and resolves its template
 * (the catalogue's, or one `created` through the API in the number's business account).
 * Throws the platform's error: 100 for a missing or malformed field, 132001 for an unknown template or
 * language, 132000 for a parameter count that differs from the template's distinct `{{n}}` placeholders.
 */
export function parseSendRequest(body: unknown, created: readonly SimulatedTemplate[] = []): SendRequest {
  if (!isObject(body)) throw invalid('The request body must be a JSON object.');
  if (body.messaging_product === undefined) throw invalid('The parameter messaging_product is required.');
  if (body.messaging_product !== 'whatsapp') throw invalid('Param messaging_product must be "whatsapp".');
  const group = recipientTypeOf(body.recipient_type) === 'group';
  const to: { input: string; waId: string; userId?: string } = group ? groupRecipient(body.to) : parseRecipient(body.to, body.recipient);
  const callbackData = parseCallbackData(body.biz_opaque_callback_data);
  const context = checkContext(body.context);
  const recipient = { to: to.input, waId: to.waId, ...(to.userId && { userId: to.userId }), ...(group && { recipientType: 'group' as const }) };
  const common = { ...recipient, ...callbackData, ...(context && { context }) };
  // As on the platform, `type` defaults to text.
  const type = body.type ?? 'text';
  if (group) checkGroupMessageType(type);
  if (type === 'template') {
    const template = parseTemplate(body.template);
    const resolvedTemplate = resolveTemplate(template, created);
    if (group) checkGroupTemplate(resolvedTemplate);
    // Authentication templates go to phone numbers only: a send by user id alone is 131062.
    if (to.userId && to.userId === to.waId && resolvedTemplate.category === 'AUTHENTICATION') throw whatsappErrors.userIdNotSupported();
    return { ...common, type, template, resolvedTemplate };
  }
  if (!SESSION_TYPES.includes(type as SessionType))
    throw invalid(`Param type must be one of {template, ${SESSION_TYPES.join(', ')}} in this simulator - got "${String(type)}".`);
  checkSessionObject(type as SessionType, body[type as string]);
  return { ...common, type: type as SessionType, ...(type === 'text' && { text: body.text as TextPayload }) };
}

/** A business-scoped user id: country code, period, optional `ENT.`, up to 128 letters and digits (Meta, "Business-scoped user IDs"). */
const USER_ID = /^[A-Z]{2}\.(ENT\.)?[A-Za-z0-9]{1,128}$/;

/**
 * The recipient: `to` (a phone number) and/or `recipient` (a user id). With both, the number wins,
 * as on the platform ("Business-scoped user IDs", "Send message requests").
 */
function parseRecipient(to: unknown, recipient: unknown): { input: string; waId: string; userId?: string } {
  if (recipient !== undefined && (typeof recipient !== 'string' || !USER_ID.test(recipient))) {
    throw invalid(`Param recipient must be a business-scoped user ID - got "${String(recipient)}".`);
  }
  const userId = recipient;
  if ((to === undefined || to === null || to === '') && userId) return { input: userId, waId: userId, userId };
  if (to === undefined || to === null || to === '') throw invalid('The parameter to is required.');
  if (typeof to !== 'string') throw invalid('Param to must be a string.');
  // The platform accepts a phone number with +, spaces, dashes and brackets, and answers its digits as wa_id.
  if (!/^\+?[\d\s().-]+$/.test(to)) throw invalid(`Param to must be a phone number - got "${to}".`);
  const digits = to.replace(/\D/g, '');
  if (digits.length < 5 || digits.length > 15) throw invalid(`Param to must be a phone number of 5 to 15 digits - got "${to}".`);
  return { input: to, waId: platformWaId(digits), ...(userId && { userId }) };
}

function parseCallbackData(value: unknown): { biz_opaque_callback_data?: string } {
  if (value === undefined) return {};
  if (typeof value !== 'string') throw invalid('Param biz_opaque_callback_data must be a string.');
  if (value.length > MAX_CALLBACK_DATA) throw invalid(`Param biz_opaque_callback_data must be at most ${MAX_CALLBACK_DATA} characters long.`);
  return { biz_opaque_callback_data: value };
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

const BUTTON_SUB_TYPES = ['url', 'quick_reply', 'copy_code', 'flow', 'catalog', 'mpm', 'voice_call'];

function parseComponent(component: unknown, index: number): TemplateComponent {
  const where = `template['components'][${index}]`;
  if (!isObject(component) || typeof component.type !== 'string') throw invalid(`The parameter ${where}['type'] is required.`);
  const type = component.type.toLowerCase();
  if (!['header', 'body', 'button'].includes(type)) {
    throw invalid(`Param ${where}['type'] must be one of {HEADER, BODY, BUTTON} - got "${component.type}".`);
  }
  const button: Pick<TemplateComponent, 'sub_type' | 'index'> = {};
  if (type === 'button') {
    const subType = typeof component.sub_type === 'string' ? component.sub_type.toLowerCase() : undefined;
    if (!subType || !BUTTON_SUB_TYPES.includes(subType)) throw invalid(`Param ${where}['sub_type'] must be one of {${BUTTON_SUB_TYPES.join(', ')}}.`);
    // The platform documents `index` as a string ("0") and also takes a number.
    const position = typeof component.index === 'string' && /^\d+$/.test(component.index) ? Number(component.index) : component.index;
    if (typeof position !== 'number' || !Number.isInteger(position) || position < 0 || position > 9)
      throw invalid(`Param ${where}['index'] must be a button index from 0 to 9.`);
    Object.assign(button, { sub_type: subType, index: position });
  }
  if (component.parameters === undefined) return { type, ...button };
  if (!Array.isArray(component.parameters)) throw invalid(`Param ${where}['parameters'] must be an array.`);
  return { type, ...button, parameters: component.parameters.map((p, i) => parseParameter(p, `${where}['parameters'][${i}]`)) };
}

const UNSAFE_TEXT = /[\n\t]| {5,}/;

/** One parameter, checked for its own shape (what the template expects is checked later, as 131008/132012/132000). */
function parseParameter(parameter: unknown, where: string): TemplateParameter {
  if (!isObject(parameter) || typeof parameter.type !== 'string') throw invalid(`The parameter ${where}['type'] is required.`);
  const type = parameter.type.toLowerCase();
  const requireString = (field: string, value: unknown) => {
    if (typeof value !== 'string' || value === '') throw invalid(`The parameter ${where}['${field}'] is required and must be a non-empty string.`);
    return value;
  };
  if (type === 'text') {
    const text = requireString('text', parameter.text);
    // A real platform rule that often bites: no new lines, tabs or more than 4 consecutive spaces in a parameter.
    if (UNSAFE_TEXT.test(text)) throw invalid('Param text cannot have new-line/tab characters or more than 4 consecutive spaces.');
    if (parameter.parameter_name !== undefined) requireString('parameter_name', parameter.parameter_name);
    return { type, text, ...(parameter.parameter_name !== undefined && { parameter_name: parameter.parameter_name }) };
  }
  if (type === 'image' || type === 'video' || type === 'document') {
    const media = parameter[type];
    if (!isObject(media)) throw invalid(`The parameter ${where}['${type}'] is required.`);
    if ((media.link === undefined) === (media.id === undefined)) throw invalid(`Param ${where}['${type}'] must have exactly one of link and id.`);
    if (media.link !== undefined && (typeof media.link !== 'string' || !/^https?:\/\//.test(media.link)))
      throw invalid(`Param ${where}['${type}']['link'] must be a URL.`);
    return { type, [type]: media };
  }
  if (type === 'location') {
    const location = parameter.location;
    const inRange = (value: unknown, limit: number) => typeof value === 'number' && Math.abs(value) <= limit;
    if (!isObject(location) || !inRange(location.latitude, 90) || !inRange(location.longitude, 180))
      throw invalid(`Param ${where}['location'] must have a latitude and a longitude in range.`);
    return { type, location };
  }
  if (type === 'payload') return { type, payload: requireString('payload', parameter.payload) };
  if (type === 'coupon_code') return { type, coupon_code: requireString('coupon_code', parameter.coupon_code) };
  throw invalid(`Param ${where}['type'] must be one of {text, image, video, document, location, payload, coupon_code} - got "${parameter.type}".`);
}

/** What a button of the template expects from the send request: its sub_type and parameter type, or nothing. */
function buttonExpectation(button: GraphButton): { subType: string; parameterType: string; required: boolean } | undefined {
  if (button.type === 'URL') return placeholdersOf(button.url).length ? { subType: 'url', parameterType: 'text', required: true } : undefined;
  if (button.type === 'COPY_CODE') return { subType: 'copy_code', parameterType: 'coupon_code', required: true };
  if (button.type === 'QUICK_REPLY') return { subType: 'quick_reply', parameterType: 'payload', required: false };
  return undefined;
}

/**
 * Checks the components against the template as the platform does: a button parameter the template
 * needs and did not get is 131008, a media header missing or of the wrong kind 132012, and text
 * parameters missing or not taken (too few or too many, unknown `parameter_name`, positional
 * parameters for a named template or the reverse) 132000.
 */
function checkComponents(template: SimulatedTemplate, components: TemplateComponent[]): void {
  const named = template.parameter_format === 'NAMED';
  const of = (type: string) => components.filter((c) => c.type === type);
  const header = template.components.find((c) => c.type === 'HEADER');
  const bodyText = template.components.find((c) => c.type === 'BODY')?.text ?? '';
  const buttons = template.components.find((c) => c.type === 'BUTTONS')?.buttons ?? [];

  const textParameters = (component: string, wanted: string[], given: TemplateParameter[]) => {
    if (given.some((p) => p.type !== 'text')) throw whatsappErrors.formatMismatch(`${component}: expected text parameters`);
    if (!named) {
      if (given.some((p) => p.parameter_name !== undefined))
        throw whatsappErrors.namedParameterMismatch(`${component}: the template takes positional parameters`);
      if (given.length !== wanted.length) throw whatsappErrors.paramCountMismatch(component, given.length, wanted.length);
      return;
    }
    for (const p of given) {
      if (typeof p.parameter_name !== 'string')
        throw whatsappErrors.namedParameterMismatch(`${component}: the template takes named parameters; parameter_name is missing`);
      if (!wanted.includes(p.parameter_name)) throw whatsappErrors.namedParameterMismatch(`${component}: unknown parameter_name "${p.parameter_name}"`);
    }
    if (given.length !== wanted.length || wanted.some((name) => !given.some((p) => p.parameter_name === name))) {
      throw whatsappErrors.paramCountMismatch(component, given.length, wanted.length);
    }
  };

  const headerGiven = of('header').flatMap((c) => c.parameters ?? []);
  if (!header || (header.format === 'TEXT' && !placeholdersOf(header.text).length)) {
    if (headerGiven.length) throw whatsappErrors.paramCountMismatch('header', headerGiven.length, 0);
  } else if (header.format === 'TEXT') {
    // A missing text parameter is counted like a body's (132000 "localizable_params (0)", as a platform log shows it).
    textParameters('header', placeholdersOf(header.text), headerGiven);
  } else {
    // A media header without its parameter is a format mismatch with "UNKNOWN" (132012, as platform logs quote it).
    if (headerGiven.length > 1) throw whatsappErrors.paramCountMismatch('header', headerGiven.length, 1);
    const given = headerGiven.length ? String(headerGiven[0].type).toUpperCase() : 'UNKNOWN';
    if (given !== header.format) throw whatsappErrors.formatMismatch(`header: Format mismatch, expected ${header.format}, received ${given}`);
  }

  textParameters(
    'body',
    placeholdersOf(bodyText),
    of('body').flatMap((c) => c.parameters ?? []),
  );

  const buttonComponents = of('button');
  for (const component of buttonComponents) {
    const button = buttons[component.index!];
    const expected = button && buttonExpectation(button);
    if (!expected) throw whatsappErrors.paramCountMismatch(`button ${component.index}`, component.parameters?.length ?? 0, 0);
    if (component.sub_type !== expected.subType)
      throw whatsappErrors.formatMismatch(`button ${component.index}: expected sub_type ${expected.subType}, got ${component.sub_type}`);
    const given = component.parameters ?? [];
    if (given.length > 1) throw whatsappErrors.paramCountMismatch(`button ${component.index}`, given.length, 1);
    if (given.length && given[0].type !== expected.parameterType)
      throw whatsappErrors.formatMismatch(`button ${component.index}: expected ${expected.parameterType}, got ${given[0].type}`);
    if (!given.length && expected.required)
      throw whatsappErrors.missingParameter(`button ${component.index}: a ${expected.parameterType} parameter is required`);
  }
  buttons.forEach((button, index) => {
    if (buttonExpectation(button)?.required && !buttonComponents.some((c) => c.index === index)) {
      throw whatsappErrors.missingParameter(`button ${index} (${button.type}): a parameter is required`);
    }
  });
}

/**
 * The template the message uses. Unknown names, languages the template has no translation in, and
 * translations that are not APPROVED (PENDING, REJECTED, ...) all answer 132001: the platform only lets
 * approved translations be sent, and for the others it reports that the translation does not exist
 * (it has dedicated codes only for paused and disabled templates, 132015 and 132016, which the simulator's
 * list does not contain).
 */
function resolveTemplate(payload: TemplatePayload, created: readonly SimulatedTemplate[]): SimulatedTemplate {
  const template = [...TEMPLATES, ...created].find((t) => t.name === payload.name && t.language === payload.language.code && t.status === 'APPROVED');
  if (!template) throw whatsappErrors.templateNotFound(payload.name, payload.language.code);
  checkComponents(template, payload.components ?? []);
  return template;
}
