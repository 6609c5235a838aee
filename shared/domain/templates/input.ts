import { errors, type ErrorDetail } from '#shared/errors';
import { fillOrder } from '#shared/platform/payloads/template';
import type { ButtonInput, HeaderInput, TemplateInput, TemplateParameters, Variables } from '#shared/records/template-parameters';
import type { Template, TemplateButton } from '#shared/records/template';

/**
 * What a client gives for a template (its variables, header and buttons), checked against the
 * template (contract §12): every problem becomes one `details` entry of a single refusal.
 * Nothing here switches on template names: the template's own components decide.
 */

/** A valid input: the body's values by placeholder name, the header's, and each button's value by its index. */
export interface AcceptedInput {
  variables: Record<string, string>;
  header: HeaderInput | null;
  buttons: Map<number, string>;
}

/** The platform's limit on a coupon code (a COPY_CODE button's value). */
const MAX_COUPON_CODE = 15;

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
  const wanted = fillOrder(template);
  // No prototype: a placeholder named `constructor` or `toString` must not find Object's.
  const values = Object.create(null) as Record<string, string>;
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
    if (button.type === 'COPY_CODE' && value.length > MAX_COUPON_CODE)
      return problems.add(`buttons.${i}.value`, `A coupon code is at most ${MAX_COUPON_CODE} characters`);
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

/**
 * Checks `input` against the template (`fieldPrefix` names where it sits in the request, e.g.
 * `recipients.3.`). Throws one `template_variables_mismatch` listing every problem.
 */
export function acceptInput(template: Template, input: TemplateInput, fieldPrefix = ''): AcceptedInput {
  const problems = new Problems(fieldPrefix);
  const variables = acceptVariables(template, input.variables, problems);
  const header = acceptHeader(template, input.header, problems);
  const buttons = acceptButtons(template, input.buttons, variables[fillOrder(template)[0]], problems);
  if (problems.details.length) {
    const [only] = problems.details;
    const message =
      problems.details.length === 1 && only.field === `${fieldPrefix}variables` && only.message.startsWith('Expected ') && template.parameter_format !== 'NAMED'
        ? `Template ${template.name} (${template.language}) takes ${template.placeholders.length} variables`
        : `The parameters do not fit template ${template.name} (${template.language})`;
    throw errors.refused('template_variables_mismatch', message, problems.details);
  }
  return { variables, header, buttons };
}

/** The accepted input as the message keeps it: named variables by name, positional ones as a list in fill order. */
export function storedParameters(template: Template, accepted: AcceptedInput): TemplateParameters {
  const { variables, header, buttons } = accepted;
  return {
    header,
    variables: template.parameter_format === 'NAMED' ? { ...variables } : fillOrder(template).map((name) => variables[name]),
    buttons: [...buttons].map(([index, value]) => ({ index, value })),
  };
}
