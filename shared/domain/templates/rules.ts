/**
 * Everything the service checks in a template definition before the platform is called
 * (contract §18), each problem one `details` entry naming its field: the name, one BODY of at
 * most 1,024 characters, a TEXT header of at most 60 characters with at most one placeholder, a
 * media header with its example file, a footer of at most 60 characters without placeholders,
 * the placeholders' numbering and examples (placeholder-rules.ts) and the buttons (button-rules.ts).
 */
import type { ErrorDetail } from '#shared/errors';
import { placeholdersOf, type ParameterFormat } from '#shared/records/template';
import type { ComponentDefinition, TemplateDefinition } from '#shared/records/template-definition';
import { buttonsProblems } from '#shared/domain/templates/button-rules';
import { placeholderProblems } from '#shared/domain/templates/placeholder-rules';

const NAME = /^[a-z0-9_]+$/;
const MAX_NAME = 512;
const MAX_BODY = 1024;
const MAX_HEADER_TEXT = 60;
const MAX_FOOTER = 60;

const tooLong = (field: string, text: string, max: number): ErrorDetail[] => (text.length > max ? [{ field, message: `At most ${max} characters` }] : []);

function nameProblems(name: string): ErrorDetail[] {
  if (!NAME.test(name)) return [{ field: 'name', message: 'Only lowercase letters, digits and underscores' }];
  return tooLong('name', name, MAX_NAME);
}

function bodyProblems(component: ComponentDefinition, at: string, format: ParameterFormat): ErrorDetail[] {
  const text = component.text ?? '';
  if (!text.trim()) return [{ field: `${at}.text`, message: 'The body needs its text' }];
  const site = { textField: `${at}.text`, exampleField: `${at}.example`, positionalKey: 'body_text', namedKey: 'body_text_named_params' } as const;
  return [...tooLong(`${at}.text`, text, MAX_BODY), ...placeholderProblems(text, format, component.example, site).problems];
}

/** A media header's example: a URL to download, or the bytes with their type. */
function mediaExampleProblems(component: ComponentDefinition, at: string): ErrorDetail[] {
  const { header_url: url, header_base64: base64, mime_type: mimeType } = component.example ?? {};
  if (typeof url === 'string' && url) return [];
  if (typeof base64 === 'string' && base64)
    return typeof mimeType === 'string' && mimeType ? [] : [{ field: `${at}.example.mime_type`, message: 'Give the type of header_base64' }];
  return [{ field: `${at}.example`, message: 'A media header needs an example: header_url, or header_base64 with mime_type' }];
}

function headerProblems(component: ComponentDefinition, at: string, format: ParameterFormat): ErrorDetail[] {
  if (!component.format) return [{ field: `${at}.format`, message: 'A header needs its format: TEXT, IMAGE, VIDEO, DOCUMENT or LOCATION' }];
  if (component.format === 'LOCATION') return [];
  if (component.format !== 'TEXT') return mediaExampleProblems(component, at);
  const text = component.text ?? '';
  if (!text.trim()) return [{ field: `${at}.text`, message: 'A text header needs its text' }];
  const site = { textField: `${at}.text`, exampleField: `${at}.example`, positionalKey: 'header_text', namedKey: 'header_text_named_params' } as const;
  const { names, problems } = placeholderProblems(text, format, component.example, site);
  const count = names.length > 1 ? [{ field: `${at}.text`, message: 'A text header has at most one placeholder' }] : [];
  return [...tooLong(`${at}.text`, text, MAX_HEADER_TEXT), ...count, ...problems];
}

function footerProblems(component: ComponentDefinition, at: string): ErrorDetail[] {
  const text = component.text ?? '';
  if (!text.trim()) return [{ field: `${at}.text`, message: 'The footer needs its text' }];
  const placeholders = placeholdersOf(text).length ? [{ field: `${at}.text`, message: 'A footer has no placeholders' }] : [];
  return [...tooLong(`${at}.text`, text, MAX_FOOTER), ...placeholders];
}

function componentProblems(component: ComponentDefinition, index: number, format: ParameterFormat): ErrorDetail[] {
  const at = `components.${index}`;
  switch (component.type) {
    case 'BODY':
      return bodyProblems(component, at, format);
    case 'HEADER':
      return headerProblems(component, at, format);
    case 'FOOTER':
      return footerProblems(component, at);
    case 'BUTTONS':
      return buttonsProblems(component.buttons, at);
  }
}

/** One BODY, and no component type twice. */
function structureProblems(components: ComponentDefinition[]): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  if (!components.some((component) => component.type === 'BODY')) problems.push({ field: 'components', message: 'A template needs a BODY component' });
  components.forEach((component, index) => {
    if (components.findIndex((other) => other.type === component.type) < index)
      problems.push({ field: `components.${index}.type`, message: `Only one ${component.type} component` });
  });
  return problems;
}

/** The problems of a template's components, for a creation or an edit. */
export const componentsProblems = (components: ComponentDefinition[], format: ParameterFormat): ErrorDetail[] => [
  ...structureProblems(components),
  ...components.flatMap((component, index) => componentProblems(component, index, format)),
];

/** Every problem of a new template's definition; none when the platform may be asked. */
export const definitionProblems = (definition: TemplateDefinition): ErrorDetail[] => [
  ...nameProblems(definition.name),
  ...componentsProblems(definition.components, definition.parameter_format),
];
