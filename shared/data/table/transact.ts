import type { CancellationReason } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type TransactWriteCommandInput } from '#shared/data/table/commands';
import { db } from '#shared/data/table/client';

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** DynamoDB's limit on the items of one transaction. */
export const MAX_TRANSACTION_ITEMS = 100;
const MAX_ATTEMPTS = 10;

/** Why each item of a cancelled transaction was refused, by position; undefined for any other error. */
export function cancellationReasons(error: unknown): CancellationReason[] | undefined {
  if ((error as Error | undefined)?.name !== 'TransactionCanceledException') return undefined;
  return (error as { CancellationReasons?: CancellationReason[] }).CancellationReasons ?? [];
}

/** Which items' conditions failed, by position, when a transaction was cancelled for that reason. */
export function failedConditions(error: unknown): number[] | undefined {
  const reasons = cancellationReasons(error);
  if (!reasons) return undefined;
  const failed = reasons.flatMap((reason, index) => (reason.Code === 'ConditionalCheckFailed' ? [index] : []));
  return failed.length ? failed : undefined;
}

const isConflict = (error: unknown) => Boolean(cancellationReasons(error)?.some((reason) => reason.Code === 'TransactionConflict'));

/**
 * Runs one transaction, retrying with jittered back-off while it only collides with another
 * transaction on the same items (counters are shared); condition failures are the caller's to read.
 */
export async function transact(items: TransactItem[]): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await db().send(new TransactWriteCommand({ TransactItems: items }));
      return;
    } catch (error) {
      if (!isConflict(error) || failedConditions(error) || attempt === MAX_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * 2 ** attempt));
    }
  }
}
