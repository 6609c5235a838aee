import { GetCommand, UpdateCommand } from '#shared/data/table/commands';
import { db, tableName } from '#shared/data/table/client';
import { conditionally } from '#shared/data/table/conditions';
import { SKIPPED_SORT_KEYS } from '#shared/data/table/stream-filters';

/**
 * A business number's sending pace (contract §14): the throughput the operator configured for it
 * (the platform's per-number setting, 80 to 1,000 messages/s), and the slow-down the platform's
 * 130429 answers last caused. Keyed by the platform number, unique across workspaces.
 */
const paceKey = (phoneNumberId: string) => ({ PK: `NUMBER#${phoneNumberId}`, SK: SKIPPED_SORT_KEYS.numberPace });

export interface NumberPace {
  /** Messages per second the platform allows this number; absent: the deployment's default. */
  throughput?: number;
  /** The rate the last slow-down set, and when (epoch ms); the rate recovers from there. */
  slowed_to?: number;
  slowed_at?: number;
}

export async function getPace(phoneNumberId: string): Promise<NumberPace | undefined> {
  // Eventually consistent: a slow-down seen a moment late costs a few more refused calls.
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: paceKey(phoneNumberId) }));
  return Item as NumberPace | undefined;
}

export async function setThroughput(phoneNumberId: string, throughput: number): Promise<void> {
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: paceKey(phoneNumberId),
      UpdateExpression: 'SET #t = :t',
      ExpressionAttributeNames: { '#t': 'throughput' },
      ExpressionAttributeValues: { ':t': throughput },
    }),
  );
}

/** Records a slow-down unless another worker recorded one since `notBefore` (so one burst of 130429s halves the rate once). */
export const recordSlowdown = (phoneNumberId: string, rate: number, at: number, notBefore: number): Promise<boolean> =>
  conditionally(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: paceKey(phoneNumberId),
        UpdateExpression: 'SET slowed_to = :rate, slowed_at = :at',
        ConditionExpression: 'attribute_not_exists(slowed_at) OR slowed_at < :notBefore',
        ExpressionAttributeValues: { ':rate': rate, ':at': at, ':notBefore': notBefore },
      }),
    ),
  );
