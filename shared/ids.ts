import { v7 } from 'uuid';

/** Record ids are UUIDv7: unique, and sorting them sorts by creation time (used for newest-first lists). */
export const newId = (): string => v7();
