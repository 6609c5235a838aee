/**
 * Fixed sort keys of records that no table-stream function reads, written by every API request
 * or by each message's life: each data module keys those records with its value here. Both stream
 * mappings drop their records before invoking (Lambda's filter criteria, lib/stateless-stack.ts),
 * and the local stream reader does the same (local/stream-poller.ts), so a request that writes
 * nothing else, such as a `GET`, invokes no stream function.
 *
 * The stream functions read messages, campaigns and contacts (sort keys `MESSAGE`, `CAMPAIGN`,
 * `CONTACT`), numbers (sort key: the platform's phone number id, digits) and templates (sort key:
 * name and language joined by `#`): none of them can have a sort key below.
 */
export const SKIPPED_SORT_KEYS = {
  /** A workspace's rate window, written by every admitted API request (contract §14). */
  rateWindow: 'RATE',
  /** An outbound message's platform-id item. */
  platformId: 'WAMID',
  /** The counting's mark of a run of moves it counted. */
  countedRun: 'COUNTED',
  /** A workspace's message counter shard, written by the counting. */
  messageCounts: 'COUNTS',
  /** A customer's 24-hour service window. */
  serviceWindow: 'WINDOW',
  /** A number's platform pace. */
  numberPace: 'PACE',
  /** An idempotency key's record. */
  idempotency: 'IDEMPOTENCY',
} as const;

const skipped: ReadonlySet<string> = new Set(Object.values(SKIPPED_SORT_KEYS));

/** The pattern of Lambda's filter criteria on the table's stream mappings: a record passes unless its sort key is skipped. */
export const streamFilterPattern = { dynamodb: { Keys: { SK: { S: [{ 'anything-but': [...skipped] }] } } } };

/** What the pattern passes, for a stream record's keys as DynamoDB Streams gives them. */
export const passesStreamFilter = (keys: Record<string, { S?: string }> | undefined): boolean => !skipped.has(keys?.SK?.S ?? '');
