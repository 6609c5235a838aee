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

/**
 * The regions of North American area codes, as valid numbers showed them. The North American
 * plan gives each area code to one country, so a number's area code tells its region: a
 * campaign's estimate asks for each recipient's region, and parsing costs 16 µs a number. At most
 * 800 area codes. Numbers reach this module validated (normalizePhone), so an invalid number with
 * a known area code, for which the parse would answer no region, does not occur.
 */
const northAmericanRegions = new Map<string, string>();
const areaCodeOf = (digits: string) => (digits.length === 11 && digits[0] === '1' ? digits.slice(1, 4) : undefined);

/** Where a number is: its country calling code (`"55"`) and ISO 3166 region (`"BR"`), each null when the number does not tell. */
export function phoneRegion(digits: string): { callingCode: string | null; country: string | null } {
  const areaCode = areaCodeOf(digits);
  const known = areaCode && northAmericanRegions.get(areaCode);
  if (known) return { callingCode: '1', country: known };
  const parsed = parsePhoneNumberFromString(`+${digits}`, metadata as unknown as MetadataJson);
  if (areaCode && parsed?.country && parsed.isValid()) northAmericanRegions.set(areaCode, parsed.country);
  return { callingCode: parsed?.countryCallingCode ?? null, country: parsed?.country ?? null };
}

/** The calling code of an ISO 3166 region (`"BR"` → `"55"`), or undefined for a region the metadata does not know. */
export function callingCodeOf(country: string): string | undefined {
  const known = metadata as unknown as MetadataJson;
  return isSupportedCountry(country as CountryCode, known) ? getCountryCallingCode(country as CountryCode, known) : undefined;
}
