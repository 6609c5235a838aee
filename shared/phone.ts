import { getCountryCallingCode, isSupportedCountry, parsePhoneNumberFromString, type CountryCode, type MetadataJson } from 'libphonenumber-js/core';
import metadata from './phone-metadata.json';
import { dialableDigits } from '#shared/wa-id';

const ACCEPTED_CHARACTERS = /^\+?[\d\s\-().]{1,40}$/;

/**
 * Digits with the country code (`14155550123`), or undefined when the input is not a real
 * international number. A leading `+` is optional; spaces, dashes, dots and parentheses are ignored.
 * The platform's WhatsApp-id forms (Mexico's `521…`) are accepted and give the dialable digits.
 * Validated against libphonenumber-js's metadata without its formats (scripts/phone-metadata.ts).
 */
export function normalizePhone(input: string): string | undefined {
  const trimmed = input.trim();
  if (!ACCEPTED_CHARACTERS.test(trimmed)) return undefined;
  const parsed = parsePhoneNumberFromString(`+${dialableDigits(trimmed.replace(/\D/g, ''))}`, metadata as unknown as MetadataJson);
  return parsed?.isValid() ? parsed.number.slice(1) : undefined;
}

/** Where a number is: its country calling code (`"55"`) and ISO 3166 region (`"BR"`), each null when the number does not tell. */
export function phoneRegion(digits: string): { callingCode: string | null; country: string | null } {
  const parsed = parsePhoneNumberFromString(`+${digits}`, metadata as unknown as MetadataJson);
  return { callingCode: parsed?.countryCallingCode ?? null, country: parsed?.country ?? null };
}

/** The calling code of an ISO 3166 region (`"BR"` → `"55"`), or undefined for a region the metadata does not know. */
export function callingCodeOf(country: string): string | undefined {
  const known = metadata as unknown as MetadataJson;
  return isSupportedCountry(country as CountryCode, known) ? getCountryCallingCode(country as CountryCode, known) : undefined;
}
