import { randomInt } from 'node:crypto';

/** A random number of `length` digits, not starting with 0, like the platform's numeric ids. */
export const randomDigits = (length: number): string => String(randomInt(1, 10)) + Array.from({ length: length - 1 }, () => randomInt(0, 10)).join('');
