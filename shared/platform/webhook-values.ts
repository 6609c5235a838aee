/**
 * The webhook's values read defensively (it is outside input): a value of the wrong type is absent,
 * never an error. Shared by the readers of its messages and statuses.
 */
import { dialableDigits } from '#shared/wa-id';

export type Json = Record<string, unknown>;
export const object = (value: unknown): Json | undefined => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined);
export const list = (value: unknown): Json[] => (Array.isArray(value) ? value.map(object).filter((v): v is Json => v !== undefined) : []);
export const str = (value: unknown): string | undefined => (typeof value === 'string' && value ? value : undefined);
export const num = (value: unknown): number | null => {
  const n = typeof value === 'string' && value.trim() ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
};
/** Latest time a Date can hold. */
const MAX_DATE_MS = 8.64e15;
/**
 * A platform timestamp (Unix seconds) as ISO-8601. A missing or impossible one becomes the epoch,
 * not the current time: inbound ids derive from the time, so a redelivery must get the same one.
 */
export const time = (seconds: unknown): string => {
  const ms = Number(seconds) * 1000;
  return new Date(Number.isFinite(ms) && ms > 0 && ms < MAX_DATE_MS ? ms : 0).toISOString();
};
/** A WhatsApp id as the dialable digits the service files numbers under. */
export const phoneOf = (value: unknown): string | null => {
  const digits = str(value)?.replace(/\D/g, '');
  return digits && digits.length >= 5 && digits.length <= 15 ? dialableDigits(digits) : null;
};
