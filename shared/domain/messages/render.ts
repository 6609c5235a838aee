import { errors } from '#shared/errors';
import type { Template } from '#shared/domain/templates/template';

export type Variables = (string | number)[] | Record<string, string | number>;

/**
 * Variables as an ordered list of strings: an array as given, or an object whose keys are
 * exactly "1".."n". Their count must equal the template's distinct placeholders.
 */
export function orderedVariables(variables: Variables | undefined, template: Template): string[] {
  let values: (string | number)[];
  if (variables === undefined) values = [];
  else if (Array.isArray(variables)) values = variables;
  else {
    const keys = Object.keys(variables);
    const expected = keys.map((_, i) => String(i + 1));
    if ([...keys].sort((a, b) => Number(a) - Number(b)).some((key, i) => key !== expected[i])) {
      throw errors.refused('template_variables_mismatch', 'Variable keys must be exactly "1" to "n"', [
        { field: 'variables', message: `Expected keys 1 to ${keys.length}` },
      ]);
    }
    values = expected.map((key) => variables[key]);
  }
  if (values.length !== template.placeholder_count) {
    throw errors.refused(
      'template_variables_mismatch',
      `Template ${template.name} (${template.language}) takes ${template.placeholder_count} variables, ${values.length} given`,
      [{ field: 'variables', message: `Expected ${template.placeholder_count} variables` }],
    );
  }
  return values.map(String);
}

/** The template body with `{{n}}` replaced by the n-th variable. */
export function render(content: string, values: string[]): string {
  return content.replace(/\{\{\s*(\d+)\s*\}\}/g, (placeholder, n: string) => values[Number(n) - 1] ?? placeholder);
}
