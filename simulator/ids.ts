import { createHash, randomBytes, randomInt } from 'node:crypto';

/** A random id of `length` digits, not starting with 0, like the platform's numeric ids. */
export const randomDigits = (length: number): string => String(randomInt(1, 10)) + Array.from({ length: length - 1 }, () => randomInt(0, 10)).join('');

/**
 * A message id shaped like the platform's: `wamid.` + base64 of a small protobuf-like record holding the
 * recipient's number and a random upper-case hex id, e.g. `wamid.HBgLMTY1MDUwNzY1MjAVAgARGBQ5QTNDQTVCM0Q0Q0Q2RTY3RTcA=`.
 * Outbound ids use marker 0x11, inbound ones 0x12, as on the platform. Unique (80 random bits), or
 * derived from `seed` when given: the same message (a history import sent twice) keeps its id.
 */
export function newWamid(waId: string, direction: 'outbound' | 'inbound' = 'outbound', seed?: string): string {
  const phone = Buffer.from(waId.slice(0, 255));
  const bits = seed === undefined ? randomBytes(10) : createHash('sha256').update(seed).digest().subarray(0, 10);
  const hex = Buffer.from(bits.toString('hex').toUpperCase());
  const marker = direction === 'outbound' ? 0x11 : 0x12;
  const record = Buffer.concat([
    Buffer.from([0x1c, 0x18, phone.length]),
    phone,
    Buffer.from([0x15, 0x02, 0x00, marker, 0x18, hex.length]),
    hex,
    Buffer.from([0x00]),
  ]);
  // Padding kept: every real id ends as its base64 does (`…RgA=`, `…AA==`; docs/platform-payloads.md).
  return `wamid.${record.toString('base64')}`;
}

/** The business number a phone number id stands for, stable per id: `1555` + 7 digits, as webhook metadata shows it. */
export function displayPhoneNumber(phoneNumberId: string): string {
  const n = createHash('sha256').update(phoneNumberId).digest().readUInt32BE(0) % 10_000_000;
  return `1555${String(n).padStart(7, '0')}`;
}

/** A conversation id as status reports carry it (32 hex digits). */
export const newConversationId = (): string => randomBytes(16).toString('hex');

/**
 * The WhatsApp id the platform answers for a recipient, which is not always the dialled number:
 * Mexican mobiles carry a `1` after `52`, and Brazilian mobiles outside the São Paulo and Rio
 * area codes (11–28) are known without their ninth digit (docs/platform-requests.md).
 */
export function platformWaId(digits: string): string {
  if (/^52\d{10}$/.test(digits)) return `521${digits.slice(2)}`;
  const brazil = /^55([3-9]\d)9(\d{8})$/.exec(digits);
  if (brazil) return `55${brazil[1]}${brazil[2]}`;
  return digits;
}
