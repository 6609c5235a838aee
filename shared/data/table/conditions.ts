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
