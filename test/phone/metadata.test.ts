import { readFileSync } from 'node:fs';
import { parsePhoneNumberFromString as parseWithFullMetadata } from 'libphonenumber-js/min';
import examples from 'libphonenumber-js/examples.mobile.json';
import { getCountryCallingCode, type CountryCode } from 'libphonenumber-js/min';
import { normalizePhone, phoneRegion } from '#shared/phone';
import { dialableDigits } from '#shared/wa-id';
import { phoneMetadata, phoneMetadataFile } from '../../scripts/phone-metadata';

/** What normalizePhone answered before the metadata lost its formats: the library's whole `min` set. */
function withFullMetadata(input: string): string | undefined {
  const parsed = parseWithFullMetadata(`+${dialableDigits(input.replace(/\D/g, ''))}`);
  return parsed?.isValid() ? parsed.number.slice(1) : undefined;
}

/** A small deterministic generator, so a difference found once is found every run. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

describe('phone metadata without formats', () => {
  it('is what scripts/phone-metadata.ts makes from the installed libphonenumber-js (run `npm run phone-metadata` after an upgrade)', () => {
    expect(JSON.parse(readFileSync(phoneMetadataFile, 'utf8'))).toEqual(JSON.parse(JSON.stringify(phoneMetadata())));
  });

  const samples = Object.entries(examples).map(([country, national]) => `${getCountryCallingCode(country as CountryCode)}${national}`);

  it("validates every country's example number, and its near misses, as the full metadata does", () => {
    const inputs = samples.flatMap((digits) => [digits, digits.slice(0, -1), `${digits}1`, `+${digits.slice(0, 3)} ${digits.slice(3)}`]);
    expect(inputs.filter((input) => normalizePhone(input) !== withFullMetadata(input))).toEqual([]);
    expect(inputs.filter((input) => normalizePhone(input) !== undefined).length).toBeGreaterThan(samples.length * 0.9);
  });

  it('validates 20,000 mutated numbers as the full metadata does', () => {
    const next = random(15);
    const digit = () => String(Math.floor(next() * 10));
    const inputs = Array.from({ length: 20_000 }, (_, i) => {
      const digits = samples[i % samples.length].split('');
      const changes = Math.floor(next() * 3);
      for (let c = 0; c < changes; c++) digits[1 + Math.floor(next() * (digits.length - 1))] = digit();
      if (next() < 0.2) digits.splice(Math.floor(next() * digits.length), 0, digit());
      if (next() < 0.2) digits.splice(1 + Math.floor(next() * (digits.length - 1)), 1);
      return digits.join('');
    });
    expect(inputs.filter((input) => normalizePhone(input) !== withFullMetadata(input))).toEqual([]);
  });
});

describe('phoneRegion', () => {
  it("tells a valid North American number's region by its area code as a parse does, whatever numbers it saw before", () => {
    const next = random(29);
    const numbers = Array.from(
      { length: 20_000 },
      () => `1${200 + Math.floor(next() * 800)}${200 + Math.floor(next() * 800)}${String(Math.floor(next() * 10_000)).padStart(4, '0')}`,
    );
    const valid = numbers.filter((digits) => parseWithFullMetadata(`+${digits}`)?.isValid());
    expect(valid.length).toBeGreaterThan(1_000);
    // Twice: the second round answers from the area codes the first one learned.
    for (const round of [1, 2])
      for (const digits of valid)
        expect([round, digits, phoneRegion(digits)]).toEqual([round, digits, { callingCode: '1', country: parseWithFullMetadata(`+${digits}`)!.country }]);
  });
});
