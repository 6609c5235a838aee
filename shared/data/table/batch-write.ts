import { BatchWriteCommand } from '#shared/data/table/commands';
import { mapLimit } from '#shared/concurrency';
import { db, tableName } from '#shared/data/table/client';

export type WriteRequest = { PutRequest: { Item: Record<string, unknown> } } | { DeleteRequest: { Key: Record<string, unknown> } };

const BATCH_SIZE = 25;
const MAX_ATTEMPTS = 8;
/**
 * Batches in flight at once. All at once, 400 batches (10,000 items) waited for the client's 50
 * sockets longer than its 500 ms connection time-out, and failed (the fan-out bench's baseline).
 */
const CONCURRENCY = 16;

/**
 * Writes any number of puts/deletes in batches of 25, retrying unprocessed items with back-off.
 * `concurrency`: batches in flight at once, fewer for background work that must leave the
 * table's throughput to requests.
 */
export async function batchWrite(requests: WriteRequest[], { concurrency = CONCURRENCY } = {}): Promise<void> {
  const batches = [];
  for (let start = 0; start < requests.length; start += BATCH_SIZE) batches.push(requests.slice(start, start + BATCH_SIZE));
  await mapLimit(batches, concurrency, writeBatch);
}

async function writeBatch(batch: WriteRequest[]): Promise<void> {
  let pending: WriteRequest[] = batch;
  for (let attempt = 0; pending.length; attempt++) {
    if (attempt === MAX_ATTEMPTS) throw new Error(`BatchWrite left ${pending.length} items unprocessed`);
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 2 ** attempt * 25));
    const { UnprocessedItems } = await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }));
    pending = (UnprocessedItems?.[tableName()] ?? []) as WriteRequest[];
  }
}
