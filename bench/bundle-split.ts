import type { Metafile } from 'esbuild';

/** A bundle's bytes by where they come from, largest first. */
export type Split = [source: string, bytes: number][];

/**
 * What each byte of a bundle is (esbuild's metafile): an npm package by name (a copy nested in
 * another package counts under its own name), the project's JSON data files by path (data, not
 * code: the phone metadata, the API document), and the rest of the project's files as `project code`.
 */
export function splitByPackage(output: Metafile['outputs'][string]): Split {
  const bytes = new Map<string, number>();
  for (const [path, { bytesInOutput }] of Object.entries(output.inputs)) {
    const source = /.*node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path)?.[1] ?? (path.endsWith('.json') ? path : 'project code');
    bytes.set(source, (bytes.get(source) ?? 0) + bytesInOutput);
  }
  return [...bytes].sort(([, a], [, b]) => b - a);
}

/** The packages that make the AWS SDK in a bundle: its own, and what its DynamoDB client's endpoint cache uses. */
const isSdk = (source: string) => /^@(aws-sdk|smithy)\//.test(source) || source === 'mnemonist' || source === 'obliterator';
const isPhoneParsing = (source: string) => source === 'libphonenumber-js' || source.endsWith('phone-metadata.json');

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const sum = (split: Split, part: (source: string) => boolean) => split.reduce((total, [source, bytes]) => total + (part(source) ? bytes : 0), 0);

/** The largest sources of a split, in one line. */
export const topSources = (split: Split, count = 6) =>
  split
    .slice(0, count)
    .map(([source, bytes]) => `${source} ${kb(bytes)}`)
    .join(', ');

/**
 * Why a bundle is as large as it is, read off its split: the SDK clients it calls (bundled, with
 * the `@smithy/core` they share: docs/performance.md says why not the runtime's), and the phone parsing.
 */
export function sizeReason(split: Split): string {
  const clients = split.filter(([source]) => source.startsWith('@aws-sdk/client-')).map(([source]) => source.slice('@aws-sdk/client-'.length));
  const reasons = [];
  if (clients.length) reasons.push(`AWS SDK for its ${clients.join(', ')} client${clients.length > 1 ? 's' : ''} (${kb(sum(split, isSdk))})`);
  const phone = sum(split, isPhoneParsing);
  if (phone) reasons.push(`phone numbers parsed with libphonenumber-js and its metadata (${kb(phone)})`);
  return reasons.join('; ') || 'no SDK client or phone parsing: see the split';
}
