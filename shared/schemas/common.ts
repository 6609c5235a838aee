/** Schema pieces that several resources' requests share, defined once. */
import * as v from 'valibot';
import { normalizePhone } from '#shared/phone';
import type { HeaderInput } from '#shared/records/template-parameters';

/** An integer query parameter (query values arrive as strings) within [min, max], with a default. */
export const integerParam = (min: number, max: number, fallback: number) =>
  v.optional(
    v.pipe(
      v.string(),
      v.regex(/^-?\d+$/, 'Must be an integer'),
      v.transform(Number),
      // What the handler gets, and what the API document shows clients (shared/openapi).
      v.number(),
      v.integer(),
      v.minValue(min, `Must be at least ${min}`),
      v.maxValue(max, `Must be at most ${max}`),
    ),
    String(fallback),
  );

export const uuid = (message = 'Must be a UUID') => v.pipe(v.string(), v.uuid(message));

/** A required, trimmed, non-empty string of at most `max` characters. */
export const text = (max: number) => v.pipe(v.string(), v.trim(), v.minLength(1, 'Must not be empty'), v.maxLength(max, `Must be at most ${max} characters`));

/**
 * Builds a schema in a call a bundle may drop when nothing uses the schema (with `@__PURE__` at
 * the call): a handler imports its operation's description (shared/schemas/operations), which
 * reaches every request schema of its resource, and keeps only its own. That leaves the
 * phone-number metadata (about 118 KB) out of the handlers that never parse a phone number.
 * (esbuild honours `@__PURE__` on a call, not valibot's own annotations across files.)
 */
export const droppable = <T>(build: () => T): T => build();

/** A phone number in any accepted format, output as digits with the country code. */
/** `from` (contract §17): which of the workspace's numbers sends; resolved against its numbers by the domain. */
export const businessNumber = () =>
  v.pipe(
    v.string(),
    v.description("A connected number's id, or its display number in any phone format; default: the workspace's default number"),
    v.check((value) => /\d/.test(value), 'Must be a number id or a phone number'),
    v.maxLength(40, 'Must be at most 40 characters'),
  );

export const phone = () =>
  v.pipe(
    v.string(),
    v.description('A phone number with its country code, in any usual format (+1 415-555-0123, 14155550123)'),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const digits = normalizePhone(dataset.value);
      if (digits) return digits;
      addIssue({ message: 'Invalid phone number' });
      return NEVER;
    }),
  );

/** A new API key's name and description (contract §3): the workspace's own keys, and the operator's for a workspace (§19). */
export const keyBody = () =>
  v.object({
    name: text(100),
    description: v.optional(v.pipe(v.string(), v.maxLength(500, 'Must be at most 500 characters'))),
  });
/**
 * A business-scoped user id (BSUID, the platform's id of a customer known by username): the
 * customer's ISO country code, a period, optionally `ENT.` (a parent BSUID), and up to 128 letters
 * and digits, e.g. `US.13491208655302741918` (Meta, "Business-scoped user IDs").
 */
export const userId = () =>
  v.pipe(
    v.string(),
    v.description("The platform's business-scoped user id of a customer known by username, e.g. US.13491208655302741918"),
    v.regex(/^[A-Z]{2}\.(ENT\.)?[A-Za-z0-9]{1,128}$/, 'Must be a business-scoped user id such as US.13491208655302741918'),
  );

/** `{id}` path parameter of single-record routes. */
export const idParams = /* @__PURE__ */ droppable(() => v.object({ id: uuid() }));

/** `page` 1–1,000 (deeper pages walk too many index entries: use the cursor, contract §22) and `pageSize` 1–100 (default 50) of every paginated list. */
export const pageParams = /* @__PURE__ */ droppable(() => ({
  page: integerParam(1, 1_000, 1),
  pageSize: integerParam(1, 100, 50),
}));

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

/** Template variables: an array in order, or an object keyed "1", "2", … (positional) or by placeholder name (named templates). */
export const variables = (allowMacros = false) =>
  v.union(
    [
      v.pipe(v.array(value(allowMacros)), v.maxLength(100, 'At most 100 variables')),
      v.record(v.pipe(v.string(), v.regex(/^[A-Za-z0-9_]{1,100}$/, 'Keys must be "1", "2", … or placeholder names')), value(allowMacros)),
    ],
    'Must be an array, or an object keyed "1", "2", … or by placeholder name',
  );

const exactlyOne = (keys: string[]) => (input: object) => keys.filter((key) => (input as Record<string, unknown>)[key] !== undefined).length === 1;

const mediaEntries = () => ({
  link: v.optional(
    v.pipe(v.string(), v.maxLength(2048, 'Must be at most 2048 characters'), v.url('Must be a URL'), v.startsWith('https://', 'Must be an https:// URL')),
  ),
  media_id: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z0-9_.:-]{1,256}$/, 'Must be a platform media id'))),
});
const oneSource = () => v.check(exactlyOne(['link', 'media_id']), 'Exactly one of link and media_id is required');

/** A media object of a message: a public `https://` link, or the id of media uploaded to the platform. */
export const media = () => v.pipe(v.strictObject(mediaEntries()), oneSource());

/** A document: media plus the file name the recipient sees. */
export const documentMedia = () =>
  v.pipe(
    v.strictObject({
      ...mediaEntries(),
      filename: v.optional(v.pipe(v.string(), v.minLength(1, 'Must not be empty'), v.maxLength(240, 'Must be at most 240 characters'))),
    }),
    oneSource(),
  );

/** A location: coordinates in range, optional name and address. */
export const location = () =>
  v.strictObject({
    latitude: v.pipe(v.number(), v.minValue(-90, 'Must be at least -90'), v.maxValue(90, 'Must be at most 90')),
    longitude: v.pipe(v.number(), v.minValue(-180, 'Must be at least -180'), v.maxValue(180, 'Must be at most 180')),
    name: v.optional(v.pipe(v.string(), v.maxLength(1000, 'Must be at most 1000 characters'))),
    address: v.optional(v.pipe(v.string(), v.maxLength(1000, 'Must be at most 1000 characters'))),
  });

const HEADER_KINDS = ['text', 'image', 'video', 'document', 'location'];

/** A template header's parameter (contract §12): exactly one of text, image, video, document, location. */
export const templateHeader = (allowMacros = false) =>
  v.pipe(
    v.strictObject({
      text: v.optional(value(allowMacros)),
      image: v.optional(media()),
      video: v.optional(media()),
      document: v.optional(documentMedia()),
      location: v.optional(location()),
    }),
    v.check(exactlyOne(HEADER_KINDS), `Exactly one of ${HEADER_KINDS.join(', ')} is required`),
    // Exactly one kind is present, which is the union the template module takes.
    v.transform((header) => header as HeaderInput),
  );

/** Template button parameters: `[{ index, value? }]`, at most the platform's 10 buttons. */
export const templateButtons = (allowMacros = false) =>
  v.pipe(
    v.array(
      v.strictObject({
        index: v.pipe(v.number(), v.integer('Must be an integer'), v.minValue(0, 'Must be at least 0'), v.maxValue(9, 'Must be at most 9')),
        value: v.optional(value(allowMacros)),
      }),
    ),
    v.maxLength(10, 'At most 10 buttons'),
  );

/** The platform's ids are strings of digits. */
export const platformId = (what: string) => v.pipe(v.string(), v.regex(/^\d{1,30}$/, `Must be the platform's ${what} (digits)`));
