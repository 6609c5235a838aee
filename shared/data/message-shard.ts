import { createHash } from 'node:crypto';

/**
 * Message and campaign counter items per workspace or campaign, and the most partitions of the
 * message list index: a 1,000 message/s campaign stays under a partition's write limit.
 */
export const MESSAGE_SHARDS = 8;

/** Which of a list's `shards` partitions a message is in: a stable hash of its id (0 when the list has one). */
export const listShard = (id: string, shards: number): number => createHash('sha256').update(id).digest().readUInt32BE(0) % shards;
