import * as v from 'valibot';

/** An integer query parameter (query values arrive as strings) within [min, max], with a default. */
export const integerParam = (min: number, max: number, fallback: number) =>
  v.optional(
    v.pipe(
      v.string(),
      v.regex(/^-?\d+$/, 'Must be an integer'),
      v.transform(Number),
      v.minValue(min, `Must be at least ${min}`),
      v.maxValue(max, `Must be at most ${max}`),
    ),
    String(fallback),
  );

export const uuid = (message = 'Must be a UUID') => v.pipe(v.string(), v.uuid(message));

/** A required, trimmed, non-empty string of at most `max` characters. */
export const text = (max: number) =>
  v.pipe(v.string(), v.trim(), v.minLength(1, 'Must not be empty'), v.maxLength(max, `Must be at most ${max} characters`));
