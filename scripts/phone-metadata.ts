/**
 * `npm run phone-metadata`: writes shared/phone-metadata.json, libphonenumber-js's `min` metadata
 * without the number formats (50 of its 83 KB). Validation and E.164 output never read formats,
 * only formatting does, which this service never asks for; test/phone/metadata.test.ts checks
 * the file is what this script makes from the installed package, and that it validates every
 * number as the full set does. Run it after upgrading libphonenumber-js.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import minMetadata from 'libphonenumber-js/metadata.min.json';

/** The position of a country's formats in the `min` metadata's arrays (its format version 4). */
const FORMATS = 4;

export function phoneMetadata(): typeof minMetadata {
  const metadata = structuredClone(minMetadata);
  for (const country of [...Object.values(metadata.countries), ...Object.values(metadata.nonGeographic ?? {})] as unknown[][]) country[FORMATS] = undefined;
  return metadata;
}

export const phoneMetadataFile = join(__dirname, '..', 'shared', 'phone-metadata.json');

if (require.main === module) writeFileSync(phoneMetadataFile, `${JSON.stringify(phoneMetadata())}\n`);
