import * as v from 'valibot';
import { droppable, pageParams, phone } from '#shared/schemas/common';
import { normalizePhone } from '#shared/phone';

/** An empty (or blank) name clears it, like null. */
const name = () =>
  v.nullable(
    v.pipe(
      v.string(),
      v.trim(),
      v.maxLength(200, 'Must be at most 200 characters'),
      v.transform((value) => value || null),
    ),
  );
const email = () => v.nullable(v.pipe(v.string(), v.trim(), v.maxLength(254, 'Must be at most 254 characters'), v.email('Invalid email address')));
const tags = () =>
  v.pipe(
    v.array(v.pipe(v.string(), v.trim(), v.minLength(1, 'Tags must not be empty'), v.maxLength(50, 'Tags must be at most 50 characters'))),
    v.maxLength(50, 'At most 50 tags'),
  );
/** What DynamoDB stores exactly from a JSON number: finite, and integers within the safe range. */
const storableNumber = () =>
  v.pipe(
    v.number(),
    v.check(
      (n) => Number.isFinite(n) && (!Number.isInteger(n) || Number.isSafeInteger(n)) && Math.abs(n) < 1e120,
      'Numbers must be finite and integers within ±9007199254740991',
    ),
  );
const isPlainObject = (value: unknown) => typeof value === 'object' && value !== null && !Array.isArray(value);
const customFields = () =>
  v.pipe(
    v.unknown(),
    // The API document shows a pipe up to its second schema: this says what the rest checks.
    v.metadata({ type: 'object', additionalProperties: { type: ['string', 'number', 'boolean', 'null'] }, maxProperties: 50 }),
    v.check(isPlainObject, 'Must be an object'),
    v.record(
      v.pipe(v.string(), v.minLength(1, 'Field names must not be empty'), v.maxLength(100, 'Field names must be at most 100 characters')),
      v.nullable(
        v.union(
          [v.pipe(v.string(), v.maxLength(1000, 'Values must be at most 1000 characters')), storableNumber(), v.boolean()],
          'Must be a string, number, boolean or null',
        ),
      ),
    ),
    v.check((fields) => Object.keys(fields).length <= 50, 'At most 50 custom fields per request'),
  );

/** The fields any contact write may carry (contract section 7); absent fields are left unchanged. */
const contactFields = () => ({
  name: v.optional(name()),
  email: v.optional(email()),
  tags: v.optional(tags()),
  custom_fields: v.optional(customFields()),
});

export const createContactBody = /* @__PURE__ */ droppable(() => v.object({ phone_number: phone(), ...contactFields() }));
export const updateContactBody = /* @__PURE__ */ droppable(() =>
  v.object({ phone_number: v.optional(phone()), ...contactFields(), opted_out: v.optional(v.boolean()) }),
);
/** A bulk item names its number `phone` (or `phone_number`). */
export const bulkContactItem = /* @__PURE__ */ droppable(() =>
  v.object({ phone: v.optional(v.string()), phone_number: v.optional(v.string()), ...contactFields() }),
);

/**
 * One bulk item read on its own, so a bad item fails alone: its number as digits and the contact
 * fields it gives, or what is wrong with it (`phone` as given, when it is a string).
 */
export function readBulkItem(item: unknown) {
  const rawPhone = (item as { phone?: unknown; phone_number?: unknown } | null)?.phone ?? (item as { phone_number?: unknown } | null)?.phone_number;
  const phoneText = typeof rawPhone === 'string' ? rawPhone : null;
  const parsed = v.safeParse(bulkContactItem, item, { abortEarly: false });
  if (!parsed.success) return { phone: phoneText, invalid: parsed.issues.map((issue) => `${v.getDotPath(issue) ?? 'item'}: ${issue.message}`).join('; ') };
  const { phone, phone_number, ...changes } = parsed.output;
  const given = phone ?? phone_number;
  if (given === undefined) return { phone: null, invalid: 'phone: Required' };
  const digits = normalizePhone(given);
  if (!digits) return { phone: given, invalid: 'phone: Invalid phone number' };
  return { phone: digits, changes };
}

/** GET /api/v1/contacts */
export const listContactsQuery = /* @__PURE__ */ droppable(() =>
  v.object({
    ...pageParams,
    search: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1, 'Must not be empty'), v.maxLength(200, 'Must be at most 200 characters'))),
    tag: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1, 'Must not be empty'), v.maxLength(50, 'Must be at most 50 characters'))),
  }),
);

/** POST /api/v1/contacts/bulk: items are validated one by one in the import, so one bad item never fails the rest. */
export const importContactsBody = /* @__PURE__ */ droppable(() =>
  v.object({
    contacts: v.pipe(v.array(v.unknown()), v.minLength(1, 'At least 1 contact'), v.maxLength(500, 'At most 500 contacts per request')),
  }),
);
