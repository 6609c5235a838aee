import { GetCommand, PutCommand } from '#shared/data/table/commands';
import { db, tableName } from '#shared/data/table/client';
import { conditionally } from '#shared/data/table/conditions';
import { batchWrite } from '#shared/data/table/batch-write';
import { coalescedPuts } from '#shared/data/table/coalesced-puts';
import { getMany } from '#shared/data/table/pages';
import { streamItemOf, type StreamImage } from '#shared/data/table/stream-image';
import { listShard } from '#shared/data/message-shard';
import type { Message } from '#shared/records/message';
import { SKIPPED_SORT_KEYS, STREAMED_SORT_KEYS } from '#shared/data/table/stream-filters';

const MESSAGE = STREAMED_SORT_KEYS.message;

/**
 * The message record: its key, its index entries and the item of its platform id, and the reads
 * and writes of whole messages. Its status writes are in message-status.ts, its lists in
 * message-list.ts; both build keys from here only.
 */
export const messageKey = (ws: string, id: string) => ({ PK: `WS#${ws}#MSG#${id}`, SK: MESSAGE });
/** Newest first, spread over MESSAGE_SHARDS partitions; the list merges them. */
export const historyEntry = (ws: string, shard: number, id?: string) => ({ GSI3PK: `WS#${ws}#MESSAGES#${shard}`, ...(id && { GSI3SK: id }) });
/** One number's conversation, or a chat group's, newest first: the `phone` and `chat_group_id` filters. */
export const conversationEntry = (ws: string, digits: string, id?: string) => ({ GSI2PK: `WS#${ws}#PHONE_MESSAGES#${digits}`, ...(id && { GSI2SK: id }) });

/**
 * A campaign message held for its send window (contract §15), by the time the window opens: the
 * window's resume hands on the entries due. Only held messages have it (a sparse index entry).
 */
export const waitingEntry = (ws: string, campaignId: string, opensAt?: string, id?: string) => ({
  GSI1PK: `WS#${ws}#CAMPAIGN#${campaignId}#WAITING`,
  ...(opensAt && { GSI1SK: `${opensAt}#${id}` }),
});

/**
 * The platform's id (`wamid.…`) of a message, once known, as a small item of its own: replies,
 * reactions, edits and reports without our id find the message by it. An item beside the message
 * rather than an index entry on it: the message item stays under 1 KB, so its every later write
 * stays one unit (docs/performance.md).
 */
const platformIdKey = (ws: string, providerMessageId: string) => ({ PK: `WS#${ws}#WAMID#${providerMessageId}`, SK: SKIPPED_SORT_KEYS.platformId });

/** Lookup items written within these milliseconds of each other share one BatchWriteItem (the send worker's jobs of one batch). */
const PLATFORM_ID_WINDOW_MS = 20;
const putLookup = coalescedPuts(PLATFORM_ID_WINDOW_MS);

/**
 * Writes the lookup item of a message's platform id. Written before the message records the id,
 * so whoever reads the id on the message finds its lookup too; writing it again changes nothing.
 */
export const putPlatformId = (message: Message, providerMessageId: string): Promise<void> =>
  putLookup({ ...platformIdKey(message.workspace_id, providerMessageId), message_id: message.id, campaign_id: message.campaign_id });

/**
 * A message as stored, with the send worker's bookkeeping: its claim, since when a send of unknown
 * outcome waits for the platform's report, and how many refusals about the pace it has waited out.
 */
export type StoredMessage = Message & { claim?: { token: string; at: number }; ambiguous_since?: string; waits?: number };

/**
 * A template's rendering that is its body alone (no header, footer or buttons) is the message's
 * `content`: it is left out of the item and put back on every read. Its 70 bytes or more took a
 * priced message over 1 KB, so that each status write cost two units (docs/performance.md).
 */
const isBodyOnly = (message: Message): boolean =>
  message.rendered !== null &&
  message.rendered.header === null &&
  message.rendered.footer === null &&
  message.rendered.buttons.length === 0 &&
  message.rendered.body === message.content;

const MESSAGE_PK = /^WS#(.+)#MSG#(.+)$/;

/**
 * A message item as read, with what its write left out put back: its id and workspace, which its
 * key holds (items written before issue 29 hold them too), and a rendering to its body alone (a
 * template message without `rendered`).
 */
export function restoredItem(item: Record<string, unknown>): Record<string, unknown> {
  const [, workspaceId, id] = MESSAGE_PK.exec(String(item.PK)) ?? [];
  const bodyOnly = item.message_type === 'template' && item.rendered === undefined;
  return {
    workspace_id: workspaceId,
    id,
    ...item,
    ...(bodyOnly && { rendered: { header: null, body: item.content, footer: null, buttons: [] } }),
  };
}

export const storedMessage = (item: Record<string, unknown>) => restoredItem(item) as unknown as StoredMessage;

/** The list partitions a message goes in when its writer is not a campaign's fan-out: one, partition 0, which every list reads (data/message-list-shards.ts). */
const SINGLE_WRITER_SHARDS = 1;

/**
 * The stored item: the message plus its list (in one of `listShards` partitions) and conversation index keys. Its id and
 * workspace are in its key only: their 86 bytes took a priced campaign message over 1 KB, so
 * that each later write cost two units (docs/performance.md).
 */
function messageItem(message: Message, listShards: number) {
  const ws = message.workspace_id;
  const { rendered, id: _id, workspace_id: _ws, ...rest } = message;
  return {
    ...messageKey(ws, message.id),
    ...historyEntry(ws, listShard(message.id, listShards), message.id),
    // A chat group's messages, its participants' included, are the group's conversation.
    ...conversationEntry(ws, message.chat_group_id ?? message.phone_number, message.id),
    ...(message.window_opens_at && message.campaign_id && waitingEntry(ws, message.campaign_id, message.window_opens_at, message.id)),
    ...rest,
    ...(!isBodyOnly(message) && { rendered }),
  };
}

export async function getMessage(ws: string, id: string, consistent = false): Promise<StoredMessage | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: messageKey(ws, id), ConsistentRead: consistent }));
  return Item && storedMessage(Item);
}

/**
 * Stores a new message with one conditional write. Idempotent by id: when a message with this
 * id exists already (a retried request, a re-delivered job), that one is returned and nothing is
 * written. The table's stream then counts it and enqueues its send (see docs/messaging.md).
 */
export async function insertMessage(message: Message): Promise<Message> {
  // An inbound message comes with its platform id.
  if (message.provider_message_id) await putPlatformId(message, message.provider_message_id);
  return (await putNewMessage(message)) ? message : (await getMessage(message.workspace_id, message.id, true))!;
}

/** The message a table stream image holds (with its index keys and bookkeeping), or undefined when the image is another record's. */
export function messageFromStreamImage(image: StreamImage | undefined): StoredMessage | undefined {
  const item = streamItemOf(image, (key) => key.SK === MESSAGE);
  return item && storedMessage(item);
}

/** The messages with these ids that exist, read strongly consistent. */
export const messagesByIds = async (ws: string, ids: string[]): Promise<StoredMessage[]> =>
  (
    await getMany<Record<string, unknown>>(
      ids.map((id) => messageKey(ws, id)),
      true,
    )
  ).map(storedMessage);

/** Writes messages none of which exists yet, 25 to a BatchWriteItem: the caller knows (a fan-out chunk's first try, domain/campaigns/fanout.ts). */
export async function putNewMessages(messages: Message[], listShards: number): Promise<void> {
  // One id twice (one recipient twice in a chunk) would fail the whole batch: BatchWriteItem refuses a key twice.
  const distinct = [...new Map(messages.map((message) => [message.id, message])).values()];
  await batchWrite(distinct.map((message) => ({ PutRequest: { Item: messageItem(message, listShards) } })));
}

/** Writes a message unless one with its id exists: true when it was written. */
export const putNewMessage = (message: Message, listShards = SINGLE_WRITER_SHARDS): Promise<boolean> =>
  conditionally(db().send(new PutCommand({ TableName: tableName(), Item: messageItem(message, listShards), ConditionExpression: 'attribute_not_exists(PK)' })));

/** The message the platform knows by this id, in this workspace: our id and its campaign. */
export async function messageByPlatformId(ws: string, providerMessageId: string): Promise<{ id: string; campaign_id: string | null } | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: platformIdKey(ws, providerMessageId), ConsistentRead: true }));
  return Item ? { id: Item.message_id as string, campaign_id: (Item.campaign_id as string | null) ?? null } : undefined;
}
