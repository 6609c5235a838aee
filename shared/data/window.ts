import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#shared/data/table/client';
import { conditionally } from '#shared/data/table/conditions';
import { epochSeconds } from '#shared/time';

/** The last inbound message from a number: the 24-hour customer service window. */
const windowKey = (ws: string, digits: string) => ({ PK: `WS#${ws}#WINDOW#${digits}`, SK: 'WINDOW' });

/** When the number last wrote in, or undefined. */
export async function lastInboundAt(ws: string, digits: string): Promise<string | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: windowKey(ws, digits) }));
  return Item?.last_inbound_at as string | undefined;
}

/** Moves the window's start forward only (reports can arrive out of order); the record expires at `expiresAt`. */
export async function recordInbound(ws: string, digits: string, at: string, expiresAt: Date): Promise<void> {
  await conditionally(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: windowKey(ws, digits),
        UpdateExpression: 'SET last_inbound_at = :at, expires_at = :expires',
        ConditionExpression: 'attribute_not_exists(last_inbound_at) OR last_inbound_at < :at',
        ExpressionAttributeValues: { ':at': at, ':expires': epochSeconds(expiresAt) },
      }),
    ),
  );
}
