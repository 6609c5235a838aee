import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#shared/data/table/client';
import type { TransactItem } from '#shared/data/table/transact';
import { epochSeconds } from '#shared/time';

/**
 * The mark that a run of stream records has been counted, named after its first record and
 * holding the sequence number of its last: written in the same transaction as the counts, so a
 * batch the stream hands over again counts nothing twice. Kept two days, past the stream's 24 hours.
 */
const countedKey = (firstEventId: string) => ({ PK: `STREAM#COUNTED#${firstEventId}`, SK: 'COUNTED' });
const KEEP_SECONDS = 2 * 24 * 3600;

/** The mark, as the transaction item that fails when that run was counted already. */
export const countedMark = (firstEventId: string, throughSequence: string): TransactItem => ({
  Put: {
    TableName: tableName(),
    Item: { ...countedKey(firstEventId), through: throughSequence, expires_at: epochSeconds() + KEEP_SECONDS },
    ConditionExpression: 'attribute_not_exists(PK)',
  },
});

/** The sequence number of the last record counted with the run starting at this record. */
export async function countedThrough(firstEventId: string): Promise<string> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: countedKey(firstEventId), ConsistentRead: true }));
  return Item!.through as string;
}
