import { errors, type ErrorDetail } from '#shared/errors';
import type { Template, TemplateButton } from '#shared/records/template';

/**
 * One template model for validation, rendering and the platform request (contract §12): given a
 * template and what a client gave for it, every problem becomes one `details` entry, and a valid
 * input yields what is stored on the message and the `components` the platform is sent.
 * Nothing here switches on template names: the template's own components decide.
 */

export type Variables = (string | number)[] | Record<string, string | number>;

export interface MediaInput {
  link?: string;
  media_id?: string;
}

export type HeaderInput =
  | { text: string }
  | { image: MediaInput }
  | { video: MediaInput }
  | { document: MediaInput & { filename?: string } }
  | { location: { latitude: number; longitude: number; name?: string; address?: string } };

export interface ButtonInput {
  index: number;
  value?: string | number;
}

/** What a client gives for a template: its variables, header and buttons. */
export interface TemplateInput {
  variables?: Variables;
  header?: HeaderInput;
  buttons?: ButtonInput[];
}

/** The parameters as accepted: values as strings, positional variables in order. */
export interface TemplateParameters {
  header: HeaderInput | null;
  variables: string[] | Record<string, string>;
  buttons: { index: number; value: string }[];
}

export type RenderedHeader =
  | { format: 'TEXT'; text: string }
  | { format: 'IMAGE' | 'VIDEO'; link: string | null; media_id: string | null }
  | { format: 'DOCUMENT'; link: string | null; media_id: string | null; filename: string | null }
  | { format: 'LOCATION'; latitude: number; longitude: number; name: string | null; address: string | null };

export interface RenderedTemplate {
  header: RenderedHeader | null;
  body: string;
  footer: string | null;
  /** Every button of the template; `value` is what this message carries for it (the full URL of a URL button). */
  buttons: { index: number; type: string; text: string; value: string | null }[];
}

/** A component of the platform's template send request (Cloud API `template.components`). */
export interface PlatformComponent {
  type: 'header' | 'body' | 'button';
  sub_type?: 'url' | 'quick_reply' | 'copy_code';
  index?: string;
  parameters: Record<string, unknown>[];
}

export interface PreparedTemplate {
  parameters: TemplateParameters;
  rendered: RenderedTemplate;
  /** The rendered body: the message's `content`. */
  content: string;
  components: PlatformComponent[];
}

const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g;

const fill = (text: string, values: Record<string, string>) => text.replace(PLACEHOLDER, (placeholder, name: string) => (Object.hasOwn(values, name) ? values[name] : placeholder));

/** The platform's limit on a coupon code (a COPY_CODE button's value). */
const MAX_COUPON_CODE = 15;

/**
 * The order the platform fills placeholders in: by name for a named template; by number for a
 * positional one (`{{1}}` takes the first value, wherever it first appears in the text).
 */
const parameterOrder = (template: Template) =>
  template.parameter_format === 'NAMED' ? template.placeholders : [...template.placeholders].sort((a, b) => Number(a) - Number(b));

const headerKind = (header: HeaderInput) => Object.keys(header)[0] as 'text' | 'image' | 'video' | 'document' | 'location';

/** What each button type takes: `required` a value, `optional` one (with a default), or none. */
function buttonParameter(button: TemplateButton, template: Template): 'required' | 'optional' | 'none' {
  if (button.type === 'URL') return button.placeholders.length ? 'required' : 'none';
  if (button.type === 'COPY_CODE') return 'required';
  // A one-time code defaults to the body's first variable; a template without one needs it given.
  if (button.type === 'OTP') return template.placeholders.length ? 'optional' : 'required';
  if (button.type === 'QUICK_REPLY') return 'optional';
  return 'none';
}

class Problems {
  readonly details: ErrorDetail[] = [];
  constructor(private readonly prefix: string) {}
  add(field: string, message: string) {
    this.details.push({ field: `${this.prefix}${field}`, message });
  }
}

/** The body's variables by placeholder name, in the order of the template's placeholders. */
function acceptVariables(template: Template, variables: Variables | undefined, problems: Problems): Record<string, string> {
  const named = template.parameter_format === 'NAMED';
  const wanted = parameterOrder(template);
  // No prototype: a placeholder named `constructor` or `toString` must not find Object's.
  const values: Record<string, string> = Object.create(null);
  if (named) {
    if (Array.isArray(variables)) {
      problems.add('variables', `Template ${template.name} (${template.language}) takes named variables: an object keyed ${wanted.join(', ')}`);
      return values;
    }
    const given = variables ?? {};
    for (const name of wanted) if (!Object.hasOwn(given, name)) problems.add(`variables.${name}`, 'Required by the template');
    for (const [name, value] of Object.entries(given)) {
      if (!wanted.includes(name)) problems.add(`variables.${name}`, `Not a placeholder of template ${template.name}`);
      else values[name] = String(value);
    }
    return values;
  }
  let list: (string | number)[];
  if (variables === undefined) list = [];
  else if (Array.isArray(variables)) list = variables;
  else {
    const keys = Object.keys(variables);
    const expected = keys.map((_, i) => String(i + 1));
    if ([...keys].sort((a, b) => Number(a) - Number(b)).some((key, i) => key !== expected[i])) {
      problems.add('variables', `Expected keys 1 to ${keys.length}`);
      return values;
    }
    list = expected.map((key) => variables[key]);
  }
  if (list.length !== wanted.length) {
    problems.add('variables', `Expected ${wanted.length} variables`);
    return values;
  }
  wanted.forEach((name, i) => (values[name] = String(list[i])));
  return values;
}

function acceptHeader(template: Template, header: HeaderInput | undefined, problems: Problems): HeaderInput | null {
  const wanted = template.header;
  const takesParameter = wanted !== null && (wanted.format !== 'TEXT' || wanted.placeholders.length > 0);
  if (!takesParameter) {
    if (header !== undefined) problems.add('header', `Template ${template.name} has ${wanted ? 'a fixed text header' : 'no header'}: leave header out`);
    return null;
  }
  const kind = wanted.format.toLowerCase();
  if (header === undefined) {
    problems.add('header', `Required: a ${kind} header`);
    return null;
  }
  if (headerKind(header) !== kind) {
    problems.add('header', `Must be a ${kind} header, not ${headerKind(header)}`);
    return null;
  }
  // A text value may come as a number, like a variable; the platform takes text.
  return 'text' in header ? { text: String(header.text) } : header;
}

function acceptButtons(template: Template, buttons: ButtonInput[] | undefined, firstVariable: string | undefined, problems: Problems): Map<number, string> {
  const values = new Map<number, string>();
  const seen = new Set<number>();
  /** Buttons given a value, fitting or not: a refused value is reported once, not also as missing. */
  const offered = new Set<number>();
  (buttons ?? []).forEach((given, i) => {
    const button = template.buttons.find((b) => b.index === given.index);
    if (!button) return problems.add(`buttons.${i}.index`, `Template ${template.name} has no button ${given.index}`);
    if (seen.has(button.index)) return problems.add(`buttons.${i}.index`, `Button ${given.index} is given twice`);
    seen.add(button.index);
    if (given.value === undefined) return;
    offered.add(button.index);
    if (buttonParameter(button, template) === 'none') return problems.add(`buttons.${i}.value`, `Button ${button.index} (${button.type}) takes no value`);
    const value = String(given.value);
    if (button.type === 'COPY_CODE' && value.length > MAX_COUPON_CODE) return problems.add(`buttons.${i}.value`, `A coupon code is at most ${MAX_COUPON_CODE} characters`);
    values.set(button.index, value);
  });
  for (const button of template.buttons) {
    if (offered.has(button.index)) continue;
    const parameter = buttonParameter(button, template);
    // Named at the button's template index: where its value would go in a `buttons` array that lists every button in order.
    if (parameter === 'required') problems.add(`buttons.${button.index}.value`, `Button ${button.index} (${button.type} "${button.text}") needs a value`);
    // The one-time code the button copies is the body's code unless given; a quick reply's payload is its text.
    else if (button.type === 'OTP' && firstVariable !== undefined) values.set(button.index, firstVariable);
    else if (button.type === 'QUICK_REPLY') values.set(button.index, button.text);
  }
  return values;
}

const mediaParameter = (media: MediaInput, extra: Record<string, unknown> = {}) => ({ ...(media.link !== undefined ? { link: media.link } : { id: media.media_id }), ...extra });

function renderHeader(template: Template, header: HeaderInput | null): RenderedHeader | null {
  const wanted = template.header;
  if (!wanted) return null;
  if (wanted.format === 'TEXT') return { format: 'TEXT', text: header && 'text' in header ? fill(wanted.text ?? '', { [wanted.placeholders[0]]: header.text }) : (wanted.text ?? '') };
  if (!header) return null;
  if ('image' in header) return { format: 'IMAGE', link: header.image.link ?? null, media_id: header.image.media_id ?? null };
  if ('video' in header) return { format: 'VIDEO', link: header.video.link ?? null, media_id: header.video.media_id ?? null };
  if ('document' in header) return { format: 'DOCUMENT', link: header.document.link ?? null, media_id: header.document.media_id ?? null, filename: header.document.filename ?? null };
  if ('location' in header) {
    const { latitude, longitude, name, address } = header.location;
    return { format: 'LOCATION', latitude, longitude, name: name ?? null, address: address ?? null };
  }
  return null;
}

function headerComponent(template: Template, header: HeaderInput | null): PlatformComponent | undefined {
  if (!header) return undefined;
  const named = template.parameter_format === 'NAMED';
  if ('text' in header) return { type: 'header', parameters: [{ type: 'text', ...(named && { parameter_name: template.header!.placeholders[0] }), text: header.text }] };
  if ('image' in header) return { type: 'header', parameters: [{ type: 'image', image: mediaParameter(header.image) }] };
  if ('video' in header) return { type: 'header', parameters: [{ type: 'video', video: mediaParameter(header.video) }] };
  if ('document' in header) {
    const { filename, ...media } = header.document;
    return { type: 'header', parameters: [{ type: 'document', document: mediaParameter(media, filename !== undefined ? { filename } : {}) }] };
  }
  return { type: 'header', parameters: [{ type: 'location', location: header.location }] };
}

/** The platform's request shape for each button that carries a parameter. */
function buttonComponent(button: TemplateButton, value: string): PlatformComponent | undefined {
  const index = String(button.index);
  if (button.type === 'URL' && button.placeholders.length) return { type: 'button', sub_type: 'url', index, parameters: [{ type: 'text', text: value }] };
  // Authentication templates' copy-code button is sent as a URL button whose parameter is the code.
  if (button.type === 'OTP') return { type: 'button', sub_type: 'url', index, parameters: [{ type: 'text', text: value }] };
  if (button.type === 'COPY_CODE') return { type: 'button', sub_type: 'copy_code', index, parameters: [{ type: 'coupon_code', coupon_code: value }] };
  if (button.type === 'QUICK_REPLY') return { type: 'button', sub_type: 'quick_reply', index, parameters: [{ type: 'payload', payload: value }] };
  return undefined;
}

function renderedButtonValue(button: TemplateButton, value: string | undefined): string | null {
  if (button.type === 'URL') return button.url === null ? null : button.placeholders.length && value !== undefined ? fill(button.url, { [button.placeholders[0]]: value }) : button.url;
  if (button.type === 'PHONE_NUMBER') return button.phone_number ?? null;
  return value ?? null;
}

/**
 * Validates `input` against the template (`fieldPrefix` names where it sits in the request, e.g.
 * `recipients.3.`), then renders it and builds the platform's components. Throws one
 * `template_variables_mismatch` listing every problem.
 */
export function prepareTemplate(template: Template, input: TemplateInput, fieldPrefix = ''): PreparedTemplate {
  const problems = new Problems(fieldPrefix);
  const variables = acceptVariables(template, input.variables, problems);
  const header = acceptHeader(template, input.header, problems);
  const order = parameterOrder(template);
  const buttons = acceptButtons(template, input.buttons, variables[order[0]], problems);
  if (problems.details.length) {
    const [only] = problems.details;
    const message =
      problems.details.length === 1 && only.field === `${fieldPrefix}variables` && only.message.startsWith('Expected ') && template.parameter_format !== 'NAMED'
        ? `Template ${template.name} (${template.language}) takes ${template.placeholders.length} variables`
        : `The parameters do not fit template ${template.name} (${template.language})`;
    throw errors.refused('template_variables_mismatch', message, problems.details);
  }

  const named = template.parameter_format === 'NAMED';
  const body = fill(template.content, variables);
  const components: PlatformComponent[] = [];
  const headerPart = headerComponent(template, header);
  if (headerPart) components.push(headerPart);
  if (order.length) {
    components.push({ type: 'body', parameters: order.map((name) => ({ type: 'text', ...(named && { parameter_name: name }), text: variables[name] })) });
  }
  for (const button of template.buttons) {
    const value = buttons.get(button.index);
    const part = value === undefined ? undefined : buttonComponent(button, value);
    if (part) components.push(part);
  }
  return {
    parameters: {
      header,
      variables: named ? { ...variables } : order.map((name) => variables[name]),
      buttons: [...buttons].map(([index, value]) => ({ index, value })),
    },
    rendered: {
      header: renderHeader(template, header),
      body,
      footer: template.footer,
      buttons: template.buttons.map((button) => ({ index: button.index, type: button.type, text: button.text, value: renderedButtonValue(button, buttons.get(button.index)) })),
    },
    content: body,
    components,
  };
}

/** `{{name}}` and `{{phone}}` replaced in every string of a template input (a campaign's per-recipient values). */
export function fillMacros<T>(input: T, phone: string, name: string | null): T {
  // A recipient without a name gets the phone number: the platform refuses blank parameters. Names are flattened to one line.
  const flatName = name?.replace(/\s+/g, ' ').trim() || phone;
  const replace = (value: unknown): unknown => {
    // Replacer functions: a `$` in a name is text, not a replacement pattern.
    if (typeof value === 'string') return value.replace(/\{\{\s*name\s*\}\}/g, () => flatName).replace(/\{\{\s*phone\s*\}\}/g, () => phone);
    if (Array.isArray(value)) return value.map(replace);
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, replace(v)]));
    return value;
  };
  return replace(input) as T;
}
