/** Schema pieces that several resources' requests share, defined once. */
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

/** A language code such as `en_US`. */
export const languageCode = () => v.pipe(v.string(), v.regex(/^[A-Za-z]{2,3}([_-][A-Za-z0-9]{2,4})?$/, 'Must be a language code such as en_US'));

/** A template name as the platform allows it. */
export const templateName = () => v.pipe(v.string(), v.trim(), v.minLength(1, 'Must not be empty'), v.maxLength(512, 'Must be at most 512 characters'));

const MACRO = /\{\{(?!\s*(name|phone)\s*\}\})/;
/** The platform refuses parameters that are empty or hold new lines, tabs or more than four spaces in a row. */
const PLATFORM_UNSAFE = /[\n\t]| {5,}/;

/** A template variable value: a string (≤1024) or a number. `allowMacros` admits `{{name}}` and `{{phone}}` and refuses any other `{{`. */
const value = (allowMacros: boolean) =>
  v.union(
    [
      v.pipe(
        v.string(),
        v.maxLength(1024, 'Must be at most 1024 characters'),
        v.check((text) => text.trim().length > 0, 'Must not be blank'),
        v.check((text) => !PLATFORM_UNSAFE.test(text), 'Must not contain new lines, tabs or more than four spaces in a row'),
        v.check((text) => !allowMacros || !MACRO.test(text), 'Only the {{name}} and {{phone}} macros are supported'),
      ),
      v.number(),
    ],
    'Must be a string or a number',
  );

/** Positional variables: an array in order, or an object keyed "1", "2", … */
export const variables = (allowMacros = false) =>
  v.union(
    [
      v.pipe(v.array(value(allowMacros)), v.maxLength(100, 'At most 100 variables')),
      v.record(v.pipe(v.string(), v.regex(/^\d{1,3}$/, 'Keys must be "1", "2", …')), value(allowMacros)),
    ],
    'Must be an array or an object keyed "1", "2", …',
  );
