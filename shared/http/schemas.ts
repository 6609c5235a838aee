import * as v from 'valibot';
import { normalizePhone } from '#shared/phone';

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

/** A phone number in any accepted format, output as digits with the country code. */
export const phone = () =>
  v.pipe(
    v.string(),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const digits = normalizePhone(dataset.value);
      if (digits) return digits;
      addIssue({ message: 'Invalid phone number' });
      return NEVER;
    }),
  );

/** `{id}` path parameter of single-record routes. */
export const idParams = v.object({ id: uuid() });

/** `page` ≥ 1 and `pageSize` 1–100 (default 50) of every paginated list. */
export const pageParams = {
  page: integerParam(1, 1_000_000, 1),
  pageSize: integerParam(1, 100, 50),
};

/** `contact_ids`: 1–1000 contact UUIDs (group membership changes). */
export const contactIdsBody = v.object({
  contact_ids: v.pipe(v.array(uuid()), v.minLength(1, 'At least 1 contact id'), v.maxLength(1000, 'At most 1000 contact ids')),
});
