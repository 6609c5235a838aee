import { GetCommand, PutCommand } from '#shared/data/table/commands';
import { db, tableName } from '#shared/data/table/client';
import { conditionally } from '#shared/data/table/conditions';

/**
 * When the next message from a business number to one recipient may go, once the platform's pair
 * rate limit (131056) refused one: each refused message reserves the next free slot, so a burst to
 * one customer is spread out while every other recipient keeps its pace. Written only on 131056.
 */
const pairKey = (phoneNumberId: string, recipient: string) => ({ PK: `NUMBER#${phoneNumberId}`, SK: `PAIR#${recipient}` });

/** Reserves the slot `interval` ms after the last reserved one (or after now): returns its epoch ms. */
export async function reservePairSlot(phoneNumberId: string, recipient: string, intervalMs: number, now = Date.now()): Promise<number> {
  for (;;) {
    const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: pairKey(phoneNumberId, recipient), ConsistentRead: true }));
    const last = (Item?.next_at as number | undefined) ?? 0;
    const slot = Math.max(last, now) + intervalMs;
    const reserved = await conditionally(
      db().send(
        new PutCommand({
          TableName: tableName(),
          Item: { ...pairKey(phoneNumberId, recipient), next_at: slot, expires_at: Math.ceil(slot / 1000) + 3600 },
          ConditionExpression: Item ? 'next_at = :seen' : 'attribute_not_exists(PK)',
          ...(Item && { ExpressionAttributeValues: { ':seen': last } }),
        }),
      ),
    );
    if (reserved) return slot;
  }
}
