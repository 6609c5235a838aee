/**
 * Pieces the response schemas share, as the contract promises them (§1): UUID ids, ISO-8601 UTC
 * timestamps, counts. Built by functions or in droppable calls, so a bundle keeps only what it uses.
 */
import * as v from 'valibot';

export const recordId = () => v.pipe(v.string(), v.uuid());
export const timestamp = () => v.pipe(v.string(), v.isoTimestamp());
export const count = () => v.pipe(v.number(), v.integer(), v.minValue(0));
/** An amount of money (contract §20): a decimal string with 4 decimals. */
export const amount = () => v.pipe(v.string(), v.regex(/^\d+\.\d{4}$/), v.examples(['12.5000']));
export const percentage = () => v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(100));
/** `{ id, deleted: true }`: the answer of a DELETE of one record. */
export const deletion = v.object({ id: recordId(), deleted: v.literal(true) });
