/**
 * Which records of the table's stream each stream function is given. Lambda's filter criteria on
 * each stream mapping drop the rest before invoking (lib/trigger-wiring.ts), and the local stream
 * reader does the same (local/stream-poller.ts): a record no function reads invokes nothing.
 */
import type { MessageStatus } from '#shared/records/message';
import type { Trigger } from '#shared/service/operation';

/** What a stream function reads, named by its trigger. */
type StreamReader = Extract<Trigger, { type: 'tableStream' }>['reads'];

/** Fixed sort keys of the records the stream functions read by sort key; each data module keys its records with its value here. */
export const STREAMED_SORT_KEYS = {
  message: 'MESSAGE',
  campaign: 'CAMPAIGN',
  contact: 'CONTACT',
  chatGroup: 'CHAT_GROUP',
  call: 'CALL',
  callPermission: 'CALL_PERMISSION',
} as const;

/**
 * Fixed sort keys of records that no stream function reads, written by every API request or by
 * each message's life; each data module keys those records with its value here. The stream
 * functions read messages, campaigns and contacts (STREAMED_SORT_KEYS), numbers (sort key: the
 * platform's phone number id, digits) and templates (sort key: name and language joined by `#`):
 * none of them can have a sort key below.
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
  /** A chat group's lookup by the platform's ids (its creation request, its group id). */
  chatGroupRef: 'CHAT_GROUP_REF',
  /** A call's lookup by the platform's call id. */
  callRef: 'CALL_REF',
} as const;

/**
 * One filter of a mapping: a record passes if its sort key is, or is not, one of those named, and
 * (when `statuses` is given) its new image's `status` is one of them. Only the record's `dynamodb`
 * part is matched: DynamoDB mappings filter on nothing else, not on `eventName`
 * (docs.aws.amazon.com/lambda/latest/dg/with-ddb-filtering.html).
 */
interface StreamFilter {
  sortKeys: { in: string[] } | { notIn: string[] };
  statuses?: MessageStatus[];
}

/** The records a stream function reads (its trigger's `reads`, shared/service/operations.ts); a record passing any one of its filters is given to it. */
export const streamFilters = {
  // The outbox (shared/domain/outbox/follow-ups.ts): a new message's send (stored `queued`) or media copy (`received`),
  // a campaign's change of status, a contact's search entries. It is also given a message's changes while it stays `queued` (its claim, a release)
  // or `received`, and ignores them; its later moves (`sent`, `delivered`, `read`, `failed`) are no follow-up's.
  followUps: [
    { sortKeys: { in: [STREAMED_SORT_KEYS.message] }, statuses: ['queued', 'received'] },
    { sortKeys: { in: [STREAMED_SORT_KEYS.campaign, STREAMED_SORT_KEYS.contact] } },
  ],
  // Events and counts (shared/domain/outbox/events.ts, counts.ts): every record but the skipped.
  changes: [{ sortKeys: { notIn: Object.values(SKIPPED_SORT_KEYS) } }],
} satisfies Record<StreamReader, StreamFilter[]>;

/** A filter as Lambda's filter criteria take it: a pattern on the stream record. */
export const filterPattern = ({ sortKeys, statuses }: StreamFilter) => ({
  dynamodb: {
    Keys: { SK: { S: 'in' in sortKeys ? sortKeys.in : [{ 'anything-but': sortKeys.notIn }] } },
    ...(statuses && { NewImage: { status: { S: statuses } } }),
  },
});

/** Whether a stream record, as DynamoDB Streams gives it, passes one of the reader's filters, as Lambda matches their patterns. */
export function passesStreamFilters(
  reader: StreamReader,
  record: { dynamodb?: { Keys?: Record<string, { S?: string }>; NewImage?: Record<string, { S?: string }> } },
): boolean {
  const sortKey = record.dynamodb?.Keys?.SK?.S;
  const status = record.dynamodb?.NewImage?.status?.S;
  return (streamFilters[reader] as StreamFilter[]).some(
    ({ sortKeys, statuses }) =>
      sortKey !== undefined &&
      ('in' in sortKeys ? sortKeys.in.includes(sortKey) : !sortKeys.notIn.includes(sortKey)) &&
      (!statuses || (status !== undefined && statuses.includes(status as MessageStatus))),
  );
}
