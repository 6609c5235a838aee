import { createHash } from 'node:crypto';
import { v7 } from 'uuid';

/** Record ids are UUIDv7: unique, and sorting them sorts by creation time (used for newest-first lists). */
export const newId = (): string => v7();

/**
 * A UUIDv7 that is the same every time for the same seed and time: for records made from
 * something that can arrive twice (a platform message id, a campaign recipient).
 */
export const stableId = (seed: string, atMs: number): string => v7({ msecs: atMs, random: createHash('sha256').update(seed).digest().subarray(0, 16) });
