import { GetCommand, UpdateCommand } from '#shared/data/table/commands';
import { db, tableName } from '#shared/data/table/client';
import { conditionally } from '#shared/data/table/conditions';
import { epochSeconds } from '#shared/time';
import { SKIPPED_SORT_KEYS } from '#shared/data/table/stream-filters';

/**
 * The last inbound message from a customer's number to one business number: the 24-hour customer
 * service window (contract §17). `businessNumber` undefined is the workspace's first number, whose
 * windows keep the key they had before several numbers, so an upgrade leaves every open window open.
 */
const windowKey = (ws: string, digits: string, businessNumber: string | undefined) => ({
  PK: `WS#${ws}#WINDOW#${digits}${businessNumber ? `#TO#${businessNumber}` : ''}`,
  SK: SKIPPED_SORT_KEYS.serviceWindow,
});

/** When the number last wrote in, or undefined. */
export async function lastInboundAt(ws: string, digits: string, businessNumber: string | undefined): Promise<string | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: windowKey(ws, digits, businessNumber) }));
  return Item?.last_inbound_at as string | undefined;
}

/** Moves the window's start forward only (reports can arrive out of order); the record expires at `expiresAt`. */
export async function recordInbound(ws: string, digits: string, businessNumber: string | undefined, at: string, expiresAt: Date): Promise<void> {
  await conditionally(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: windowKey(ws, digits, businessNumber),
        UpdateExpression: 'SET last_inbound_at = :at, expires_at = :expires',
        ConditionExpression: 'attribute_not_exists(last_inbound_at) OR last_inbound_at < :at',
        ExpressionAttributeValues: { ':at': at, ':expires': epochSeconds(expiresAt) },
      }),
    ),
  );
}
