import { UpdateCommand } from '#shared/data/table/commands';
import { db, tableName } from '#shared/data/table/client';
import { conditionally } from '#shared/data/table/conditions';

/** Sends per second per platform number (fixed one-second windows), shared by every worker. */
export const sendRatePartition = (phoneNumberId: string) => `SEND_RATE#${phoneNumberId}`;
const sendRateKey = (phoneNumberId: string, second: number) => ({ PK: sendRatePartition(phoneNumberId), SK: String(second) });

/** Counts `slots` sends in the number's window `second` if they fit under `limit`; false when they do not. Windows expire after two minutes. */
export const takeSlotsIn = (phoneNumberId: string, second: number, slots: number, limit: number): Promise<boolean> =>
  conditionally(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: sendRateKey(phoneNumberId, second),
        UpdateExpression: 'ADD #count :slots SET expires_at = :expires',
        ConditionExpression: 'attribute_not_exists(#count) OR #count <= :most',
        ExpressionAttributeNames: { '#count': 'count' },
        ExpressionAttributeValues: { ':slots': slots, ':most': limit - slots, ':expires': second + 120 },
      }),
    ),
  );
