import { placeholdersOf, type GraphButton, type GraphComponent, type TemplateCategory } from '#simulator/templates';
import { templateErrors } from '#simulator/template-errors';
import type { UploadSessions } from '#simulator/uploads';
import { whatsappErrors } from '#simulator/whatsapp-errors';

/**
 * Checks a template definition as the platform does on creation and edit, and answers its
 * components as the platform will list them. The first problem found is the answer (the platform
 * reports one error per request): a missing body or example, a text over its limit (2388040), a
 * header it cannot take (2388047: two placeholders, an unknown upload handle), a footer with
 * placeholders (2388073), button rules. An `OTP` button is listed as the URL button that carries
 * the code (Meta, "Copy code authentication templates").
 */
type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const CATEGORIES: TemplateCategory[] = ['MARKETING', 'UTILITY', 'AUTHENTICATION'];
const invalid = templateErrors.invalidDefinition;

function checkExamples(text: string, example: unknown, positional: string, named: string, where: string): void {
  const count = placeholdersOf(text).length;
  if (count === 0) return;
  const given = isObject(example) ? (example[positional] ?? example[named]) : undefined;
  const values = positional === 'body_text' && Array.isArray(given) && Array.isArray(given[0]) ? given[0] : given;
  if (!Array.isArray(values) || values.length < count) throw invalid(`${where} has ${count} variables but not an example for each.`);
}

function header(component: Json, uploads: UploadSessions): GraphComponent {
  const format = component.format;
  if (format === 'LOCATION') return { type: 'HEADER', format };
  if (format === 'TEXT') {
    const text = String(component.text ?? '');
    if (!text || text.length > 60) throw templateErrors.characterLimit('The header text');
    if (placeholdersOf(text).length > 1) throw templateErrors.headerFormat('A text header can have one variable.');
    checkExamples(text, component.example, 'header_text', 'header_text_named_params', 'The header');
    return component as GraphComponent;
  }
  if (format !== 'IMAGE' && format !== 'VIDEO' && format !== 'DOCUMENT') throw templateErrors.headerFormat(`Unknown header format ${String(format)}.`);
  const handle = isObject(component.example) && Array.isArray(component.example.header_handle) ? component.example.header_handle[0] : undefined;
  if (typeof handle !== 'string' || !uploads.typeOf(handle))
    throw templateErrors.headerFormat('A media header needs example.header_handle from a resumable upload.');
  return { type: 'HEADER', format, example: { header_handle: [handle] } };
}

function button(given: unknown): GraphButton {
  if (!isObject(given)) throw invalid('A button must be an object.');
  const text = String(given.text ?? '');
  if (given.type === 'OTP')
    return {
      type: 'URL',
      text: text || 'Copy code',
      url: 'https://www.whatsapp.com/otp/code/?otp_type=COPY_CODE&code=otp{{1}}',
      example: ['https://www.whatsapp.com/otp/code/?otp_type=COPY_CODE&code=otp123456'],
    };
  if (!text || text.length > 25) throw templateErrors.characterLimit('A button text');
  if (given.type === 'QUICK_REPLY') return { type: 'QUICK_REPLY', text };
  if (given.type === 'PHONE_NUMBER' && typeof given.phone_number === 'string') return { type: 'PHONE_NUMBER', text, phone_number: given.phone_number };
  if (given.type === 'COPY_CODE' && typeof given.example === 'string') return { type: 'COPY_CODE', text, example: given.example };
  if (given.type === 'URL' && typeof given.url === 'string') {
    const variables = placeholdersOf(given.url);
    if (variables.length > 1 || (variables.length === 1 && !/\{\{1\}\}$/.test(given.url))) throw invalid('A URL button can have one variable, at the end.');
    if (variables.length && !Array.isArray(given.example)) throw invalid('A URL button with a variable needs an example URL.');
    return { type: 'URL', text, url: given.url, ...(Array.isArray(given.example) && { example: given.example.map(String) }) };
  }
  throw invalid(`Button type ${String(given.type)} is missing a required field.`);
}

function buttons(component: Json): GraphComponent {
  const list = Array.isArray(component.buttons) ? component.buttons : [];
  if (list.length === 0 || list.length > 10) throw invalid('A BUTTONS component has 1 to 10 buttons.');
  const kinds = list.map((b) => (isObject(b) && b.type === 'QUICK_REPLY' ? 'q' : 'o')).join('');
  if (/q+o+q/.test(kinds)) throw invalid('Quick reply buttons must be grouped together.');
  return { type: 'BUTTONS', buttons: list.map(button) };
}

function component(given: unknown, uploads: UploadSessions): GraphComponent {
  if (!isObject(given)) throw invalid('A component must be an object.');
  const text = String(given.text ?? '');
  switch (given.type) {
    case 'HEADER':
      return header(given, uploads);
    case 'BODY':
      if (!text || text.length > 1024) throw templateErrors.characterLimit('The body');
      checkExamples(text, given.example, 'body_text', 'body_text_named_params', 'The body');
      return given as GraphComponent;
    case 'FOOTER':
      if (placeholdersOf(text).length) throw templateErrors.footerFormat('A footer cannot have variables.');
      if (!text || text.length > 60) throw templateErrors.characterLimit('The footer');
      return { type: 'FOOTER', text };
    case 'BUTTONS':
      return buttons(given);
    default:
      throw invalid(`Unknown component type ${String(given.type)}.`);
  }
}

/** The components of a creation or edit, as the platform will list them. */
export function checkComponents(given: unknown, uploads: UploadSessions): GraphComponent[] {
  if (!Array.isArray(given) || !given.some((c) => isObject(c) && c.type === 'BODY')) throw invalid('A template needs a BODY component.');
  return given.map((c) => component(c, uploads));
}

/** A creation's name, language and category, checked. */
export function checkIdentity(body: Json): { name: string; language: string; category: TemplateCategory; parameter_format: 'POSITIONAL' | 'NAMED' } {
  const { name, language, category, parameter_format: format } = body;
  if (typeof name !== 'string' || !/^[a-z0-9_]{1,512}$/.test(name))
    throw whatsappErrors.invalidParameter('Param name must be lowercase letters, digits and underscores, at most 512 characters.');
  if (typeof language !== 'string' || !language) throw whatsappErrors.invalidParameter('The parameter language is required.');
  if (!CATEGORIES.includes(category as TemplateCategory)) throw whatsappErrors.invalidParameter(`Param category must be one of ${CATEGORIES.join(', ')}.`);
  return { name, language, category: category as TemplateCategory, parameter_format: format === 'NAMED' ? 'NAMED' : 'POSITIONAL' };
}
