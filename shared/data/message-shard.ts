import { createHash } from 'node:crypto';

/**
 * Message list index partitions, and message and campaign counter items, per workspace or
 * campaign: a 1,000 message/s campaign stays under a partition's write limit.
 */
export const MESSAGE_SHARDS = 8;

/** Which list partition and counter items a message belongs to: a stable hash of its id. */
export const messageShard = (id: string): number => createHash('sha256').update(id).digest().readUInt32BE(0) % MESSAGE_SHARDS;
