import { templateComponents, type PlatformComponent } from '#shared/platform/payloads/template';
import { acceptInput, storedParameters } from '#shared/domain/templates/input';
import { renderTemplate } from '#shared/domain/templates/render';
import type { RenderedTemplate, TemplateInput, TemplateParameters } from '#shared/records/template-parameters';
import type { Template } from '#shared/records/template';

/**
 * One template model for validation, rendering and the platform request (contract §12): given a
 * template and what a client gave for it, the input is checked (`input.ts`), rendered
 * (`render.ts`), and the platform's `components` built (shared/platform/payloads/template.ts).
 */

export interface PreparedTemplate {
  parameters: TemplateParameters;
  rendered: RenderedTemplate;
  /** The rendered body: the message's `content`. */
  content: string;
  components: PlatformComponent[];
}

/**
 * Validates `input` against the template (`fieldPrefix` names where it sits in the request, e.g.
 * `recipients.3.`), then renders it and builds the platform's components. Throws one
 * `template_variables_mismatch` listing every problem.
 */
export function prepareTemplate(template: Template, input: TemplateInput, fieldPrefix = ''): PreparedTemplate {
  const accepted = acceptInput(template, input, fieldPrefix);
  const rendered = renderTemplate(template, accepted);
  return {
    parameters: storedParameters(template, accepted),
    rendered,
    content: rendered.body,
    components: templateComponents(template, accepted),
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
