import * as v from 'valibot';

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
