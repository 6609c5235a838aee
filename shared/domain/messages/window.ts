import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#shared/data/table/client';
import { keys } from '#shared/data/keys';
import { errors } from '#shared/errors';
import { epochSeconds } from '#shared/time';

const WINDOW_MS = 24 * 3600 * 1000;

/** Free-form text is allowed only within 24 hours of the number's last inbound message. */
export async function requireOpenWindow(ws: string, digits: string, now = Date.now()): Promise<void> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.window(ws, digits) }));
  const last = Item ? Date.parse(Item.last_inbound_at as string) : 0;
  if (now - last > WINDOW_MS) {
    throw errors.refused('session_window_closed', 'No message from this number in the last 24 hours: send a template message instead');
  }
}

/** Moves the window's start forward only: reports can arrive out of order. Expires with the window. */
export async function openWindow(ws: string, digits: string, at: string): Promise<void> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.window(ws, digits),
        UpdateExpression: 'SET last_inbound_at = :at, expires_at = :expires',
        ConditionExpression: 'attribute_not_exists(last_inbound_at) OR last_inbound_at < :at',
        ExpressionAttributeValues: { ':at': at, ':expires': epochSeconds(new Date(Date.parse(at) + WINDOW_MS)) + 3600 },
      }),
    );
  } catch (error) {
    if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
  }
}
