import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { failedConditions } from '#shared/data/table/transact';

/** Whether a write (or a transaction) failed only because a condition did not hold. */
export const isConditionFailure = (error: unknown): boolean =>
  (error as Error | undefined)?.name === 'ConditionalCheckFailedException' || Boolean(failedConditions(error));

/**
 * Runs a conditional write: true when it was applied, false when its condition did not hold.
 * Any other failure is thrown.
 */
export async function conditionally(write: Promise<unknown>): Promise<boolean> {
  try {
    await write;
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** A conditional write's outcome when its condition's failure brings the item back: `found` is undefined when there is none. */
export type WriteOrFound<Output = unknown> = { applied: true; output: Output } | { applied: false; found: Record<string, unknown> | undefined };

/**
 * Runs a conditional write that asks for the item as it was should its condition fail
 * (ReturnValuesOnConditionCheckFailure ALL_OLD): applied, with what the write answered, or the
 * item that came with the failure, where a read would be one more call. Any other failure is thrown.
 */
export async function conditionallyOrFound<Output>(write: Promise<Output>): Promise<WriteOrFound<Output>> {
  try {
    return { applied: true, output: await write };
  } catch (error) {
    if ((error as Error | undefined)?.name !== 'ConditionalCheckFailedException') throw error;
    const item = (error as { Item?: Record<string, AttributeValue> }).Item;
    return { applied: false, found: item && unmarshall(item) };
  }
}

/**
 * `SET #name = :name, …` for each field given, with its names and values: the update most
 * records make. Field names must be attribute names (letters, digits, underscores).
 */
export function setFields(fields: Record<string, unknown>): { expression: string; names: Record<string, string>; values: Record<string, unknown> } {
  const entries = Object.entries(fields);
  return {
    expression: `SET ${entries.map(([name]) => `#${name} = :${name}`).join(', ')}`,
    names: Object.fromEntries(entries.map(([name]) => [`#${name}`, name])),
    values: Object.fromEntries(entries.map(([name, value]) => [`:${name}`, value])),
  };
}
