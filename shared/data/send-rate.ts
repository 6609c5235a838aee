import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#shared/data/table/client';
import { conditionally } from '#shared/data/table/conditions';

/** Sends per second per platform number (fixed one-second windows), shared by every worker. */
const sendRateKey = (phoneNumberId: string, second: number) => ({ PK: `SEND_RATE#${phoneNumberId}`, SK: String(second) });

/** Counts one send in the number's window `second` if it holds fewer than `limit`; false when full. Windows expire after two minutes. */
export const takeSlotIn = (phoneNumberId: string, second: number, limit: number): Promise<boolean> =>
  conditionally(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: sendRateKey(phoneNumberId, second),
        UpdateExpression: 'ADD #count :one SET expires_at = :expires',
        ConditionExpression: 'attribute_not_exists(#count) OR #count < :limit',
        ExpressionAttributeNames: { '#count': 'count' },
        ExpressionAttributeValues: { ':one': 1, ':limit': limit, ':expires': second + 120 },
      }),
    ),
  );
