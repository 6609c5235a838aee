/**
 * The platform's placeholder rules for one text of a template being defined (contract §18):
 * positional placeholders are `{{1}}`, `{{2}}`, … numbered from 1 without gaps; named ones are
 * `[a-z0-9_]+`; and every placeholder has an example, since the platform refuses a template
 * whose variables it cannot review with sample values.
 */
import type { ErrorDetail } from '#shared/errors';
import { placeholdersOf, type ParameterFormat } from '#shared/records/template';

const NAMED = /^[a-z0-9_]+$/;

/** Where a text's problems are reported, and which example keys hold its sample values. */
export interface PlaceholderSite {
  /** The text's field path, e.g. `components.1.text`. */
  textField: string;
  /** The component's `example` field path, e.g. `components.1.example`. */
  exampleField: string;
  /** `body_text` / `header_text` and their named forms. */
  positionalKey: 'body_text' | 'header_text';
  namedKey: 'body_text_named_params' | 'header_text_named_params';
}

function numberingProblem(names: string[], format: ParameterFormat): string | undefined {
  if (format === 'NAMED') {
    const bad = names.find((name) => !NAMED.test(name));
    return bad === undefined ? undefined : `Named placeholders use lowercase letters, digits and underscores: {{${bad}}}`;
  }
  if (names.some((name) => !/^\d+$/.test(name))) return 'Positional placeholders are numbers: {{1}}, {{2}}, …';
  const numbers = names.map(Number).sort((a, b) => a - b);
  return numbers.every((n, i) => n === i + 1) ? undefined : 'Placeholders must be numbered from {{1}} without gaps';
}

/** How many sample values the example gives for positional placeholders (body: the first row). */
function positionalExamples(example: Record<string, unknown> | undefined, key: PlaceholderSite['positionalKey']): unknown[] {
  const given = example?.[key];
  if (!Array.isArray(given)) return [];
  const row: unknown = key === 'body_text' ? given[0] : given;
  return Array.isArray(row) ? row.filter((value) => typeof value === 'string' && value.trim() !== '') : [];
}

function namedExamples(example: Record<string, unknown> | undefined, key: PlaceholderSite['namedKey']): Set<string> {
  const given = example?.[key];
  if (!Array.isArray(given)) return new Set();
  const entries = given as { param_name?: unknown; example?: unknown }[];
  return new Set(
    entries.flatMap((entry) => (typeof entry?.param_name === 'string' && typeof entry.example === 'string' && entry.example.trim() ? [entry.param_name] : [])),
  );
}

function exampleProblem(
  names: string[],
  format: ParameterFormat,
  example: Record<string, unknown> | undefined,
  site: PlaceholderSite,
): ErrorDetail | undefined {
  if (names.length === 0) return undefined;
  if (format === 'NAMED') {
    const covered = namedExamples(example, site.namedKey);
    const missing = names.filter((name) => !covered.has(name));
    return missing.length
      ? { field: `${site.exampleField}.${site.namedKey}`, message: `No example for ${missing.map((n) => `{{${n}}}`).join(', ')}` }
      : undefined;
  }
  const given = positionalExamples(example, site.positionalKey).length;
  return given === names.length
    ? undefined
    : { field: `${site.exampleField}.${site.positionalKey}`, message: `Give one example for each of the ${names.length} placeholders (got ${given})` };
}

/** The text's placeholders, with the problems of their numbering or names and of their examples. */
export function placeholderProblems(
  text: string,
  format: ParameterFormat,
  example: Record<string, unknown> | undefined,
  site: PlaceholderSite,
): { names: string[]; problems: ErrorDetail[] } {
  const names = placeholdersOf(text);
  const problems: ErrorDetail[] = [];
  const numbering = numberingProblem(names, format);
  if (numbering) problems.push({ field: site.textField, message: numbering });
  const missingExample = exampleProblem(names, format, example, site);
  if (missingExample) problems.push(missingExample);
  return { names, problems };
}
