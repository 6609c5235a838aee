/**
 * JSON of someone else's making (a flow's answers, a flow's first-screen data) that the service
 * stores in a table item and repeats in events: bounded so that it always fits both. DynamoDB
 * nests at most 32 levels, takes numbers below ±1E+126, and map keys of at least
 * one character; an event holds 256 KB (docs/decisions.md, "Flows").
 */
export const JSON_LIMITS = { maxBytes: 64 * 1024, maxDepth: 16 } as const;

/** DynamoDB stores magnitudes below 1E+126 (up to 9.99…E+125) and, besides zero, from 1E-130. */
const NUMBER_CEILING = 1e126;
const MIN_NUMBER = 1e-130;

/** How deeply brackets nest in JSON text, counted without parsing (strings skipped), stopping past `limit`. */
function textDepth(text: string, limit: number): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') {
      deepest = Math.max(deepest, ++depth);
      if (deepest > limit) return deepest;
    } else if (c === '}' || c === ']') depth--;
  }
  return deepest;
}

/** Why a parsed value cannot be kept as it is (a number or key the table refuses, nesting too deep), or undefined. */
export function jsonValueProblem(value: unknown, maxDepth: number = JSON_LIMITS.maxDepth, depth = 0): string | undefined {
  if (typeof value === 'number') {
    const size = Math.abs(value);
    return Number.isFinite(value) && size < NUMBER_CEILING && (size === 0 || size >= MIN_NUMBER) ? undefined : `Holds a number out of range (${value})`;
  }
  if (value === null || typeof value !== 'object') return undefined;
  if (depth >= maxDepth) return `Nests more than ${maxDepth} levels`;
  const entries = Array.isArray(value) ? value.map((v) => ['0', v] as const) : Object.entries(value);
  for (const [key, inner] of entries) {
    if (key === '') return 'Holds an empty key';
    const problem = jsonValueProblem(inner, maxDepth, depth + 1);
    if (problem) return problem;
  }
  return undefined;
}

/** Bytes of a value's JSON text (UTF-8). */
export const jsonBytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');

/**
 * JSON text as a value when it is valid and within the limits, else null: too long or too deep is
 * refused before parsing, so no input, however large or nested, costs more than a scan.
 */
export function parseBoundedJson(text: string): unknown {
  if (Buffer.byteLength(text, 'utf8') > JSON_LIMITS.maxBytes || textDepth(text, JSON_LIMITS.maxDepth) > JSON_LIMITS.maxDepth) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  return jsonValueProblem(value) ? null : value;
}
