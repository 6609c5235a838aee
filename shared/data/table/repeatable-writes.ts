import { randomBytes } from 'node:crypto';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';

/**
 * Makes every PutItem and UpdateItem safe for the SDK to repeat. A call whose connection drops
 * after DynamoDB applied it is retried by the SDK, and a repeat is not harmless: an ADD counts
 * twice, and a conditional write fails against its own first attempt (the caller then believes
 * someone else got there first). So each call carries a token of its own, written with the item,
 * and a condition that the item does not already carry it; when that condition fails, the item
 * comes back with the error (ReturnValuesOnConditionCheckFailure), and an item holding the
 * call's own token shows that an earlier attempt was applied: the call answers as applied, with
 * that item as its attributes (it is the item as the call left it). Transactions carry their own
 * ClientRequestToken, which the table client keeps across retries; BatchWriteItem's puts and deletes
 * repeat harmlessly. A repeat after another writer changed the item in between is not caught;
 * docs/limits.md says where that can happen.
 */
export const WRITE_TOKEN = '_w';

/** 72 random bits: a token only has to differ from the other writes to the same item. Short, as it is stored on every item (and counted in its size). */
const newToken = () => randomBytes(9).toString('base64url');

const NAME = '#write_token';
const VALUE = ':write_token';
const NOT_ALREADY = `(attribute_not_exists(${NAME}) OR ${NAME} <> ${VALUE})`;

/** A write's input in document shapes, before it is marshalled. */
interface WriteInput {
  Item?: Record<string, unknown>;
  UpdateExpression?: string;
  ConditionExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: Record<string, unknown>;
  ReturnValuesOnConditionCheckFailure?: string;
}

/** Adds `#write_token = :write_token` to the update's SET clause, or a SET clause of its own. */
function withTokenSet(expression: string): string {
  const set = /(^|\s)SET\s/i.exec(expression);
  if (!set) return `${expression} SET ${NAME} = ${VALUE}`;
  const at = set.index + set[0].length;
  return `${expression.slice(0, at)}${NAME} = ${VALUE}, ${expression.slice(at)}`;
}

function tokenized(operation: 'PutItem' | 'UpdateItem', input: WriteInput, token: string): WriteInput {
  const values = { ...input.ExpressionAttributeValues, [VALUE]: token };
  const names = { ...input.ExpressionAttributeNames, [NAME]: WRITE_TOKEN };
  const condition = input.ConditionExpression ? `(${input.ConditionExpression}) AND ${NOT_ALREADY}` : NOT_ALREADY;
  const common = {
    ConditionExpression: condition,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
  };
  if (operation === 'PutItem') return { ...input, ...common, Item: { ...input.Item, [WRITE_TOKEN]: token } };
  return { ...input, ...common, UpdateExpression: withTokenSet(input.UpdateExpression ?? '') };
}

const isOwnEarlierAttempt = (error: unknown, token: string) =>
  (error as Error | undefined)?.name === 'ConditionalCheckFailedException' &&
  (error as { Item?: Record<string, AttributeValue> }).Item?.[WRITE_TOKEN]?.S === token;

/**
 * Sends a PutItem or UpdateItem through `send` (which retries) with the call's own token: a
 * condition that fails on the item as an earlier attempt of this call left it answers as applied.
 */
export async function sendRepeatable(
  operation: 'PutItem' | 'UpdateItem',
  input: WriteInput,
  send: (input: WriteInput) => Promise<Record<string, unknown>>,
): Promise<Record<string, unknown>> {
  const token = newToken();
  const callerWantsOldItem = input.ReturnValuesOnConditionCheckFailure === 'ALL_OLD';
  try {
    return await send(tokenized(operation, input, token));
  } catch (error) {
    if (!isOwnEarlierAttempt(error, token)) {
      // The caller asked for nothing back on failure: the item the token check asked for stays out of its error.
      if (!callerWantsOldItem && error && typeof error === 'object') delete (error as { Item?: unknown }).Item;
      throw error;
    }
    return { Attributes: unmarshall((error as { Item: Record<string, AttributeValue> }).Item), $metadata: {} };
  }
}
