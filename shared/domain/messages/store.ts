import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#shared/data/table/client';
import { keys } from '#shared/data/keys';
import { failedConditions, transact } from '#shared/data/table/transact';
import { countMove } from '#shared/domain/messages/counters';
import { messageShard, type Message } from '#shared/domain/messages/message';

/** The stored item: the message plus its list (sharded) and conversation index keys. */
export function messageItem(message: Message) {
  const ws = message.workspace_id;
  return {
    ...keys.message(ws, message.id),
    ...keys.messageList(ws, messageShard(message.id), message.id),
    ...keys.phoneMessages(ws, message.phone_number, message.id),
    ...message,
  };
}

/** A message as stored, with the send worker's bookkeeping. */
export type StoredMessage = Message & { claim?: { token: string; at: number }; attempts?: number };

export async function getMessage(ws: string, id: string, consistent = false): Promise<StoredMessage | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.message(ws, id), ConsistentRead: consistent }));
  return Item as StoredMessage | undefined;
}

/**
 * Stores a new message and counts it, in one transaction. Idempotent by id: when a message
 * with this id exists already (a retried request, a re-delivered job), that one is returned
 * and nothing is written. The table's stream then enqueues the send (see docs/messaging.md).
 */
export async function insertMessage(message: Message): Promise<Message> {
  try {
    await transact([
      { Put: { TableName: tableName(), Item: messageItem(message), ConditionExpression: 'attribute_not_exists(PK)' } },
      countMove(message.workspace_id, message.id, null, message.status),
    ]);
    return message;
  } catch (error) {
    if (!failedConditions(error)) throw error;
    return (await getMessage(message.workspace_id, message.id, true))!;
  }
}
