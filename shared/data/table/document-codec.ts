import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import type { TableOperation } from '#shared/data/table/commands';

/**
 * Items between the document shapes the service writes (plain values) and DynamoDB's wire
 * format, for the attributes of each operation that hold items, keys or values: what the SDK's
 * document client marshals, with its one option the service set (undefined values left out).
 * Errors are not touched: a refused condition's item comes back marshalled, as from the SDK.
 */

type Json = Record<string, unknown>;
type Wire = Record<string, AttributeValue>;

const toWire = (value: unknown): Wire | undefined => (value === undefined ? undefined : marshall(value as Json, { removeUndefinedValues: true }));
const fromWire = (value: unknown): Json | undefined => (value === undefined ? undefined : unmarshall(value as Wire));

/** `input` with each named attribute passed through `convert` (left out when absent). */
function mapped(input: Json | undefined, names: readonly string[], convert: (value: unknown) => unknown): Json | undefined {
  if (!input) return input;
  const out = { ...input };
  for (const name of names) if (out[name] !== undefined) out[name] = convert(out[name]);
  return out;
}

/** Each table's entry of a batch's `RequestItems`, `Responses` or `Unprocessed…` map through `convert`. */
function perTable(tables: unknown, convert: (entry: never) => unknown): Json | undefined {
  if (!tables) return undefined;
  return Object.fromEntries(Object.entries(tables as Json).map(([table, entry]) => [table, convert(entry as never)]));
}

/** A batch write's requests: puts' items and deletes' keys. */
const writeRequests = (requests: Json[], convert: (value: unknown) => unknown) =>
  requests.map((request) => ({
    ...request,
    ...(request.PutRequest !== undefined && { PutRequest: mapped(request.PutRequest as Json, ['Item'], convert) }),
    ...(request.DeleteRequest !== undefined && { DeleteRequest: mapped(request.DeleteRequest as Json, ['Key'], convert) }),
  }));

const VALUES = ['Key', 'Item', 'ExpressionAttributeValues', 'ExclusiveStartKey'] as const;
const TRANSACT_PARTS = ['Put', 'Update', 'Delete', 'ConditionCheck'] as const;

/** The request body of `operation` for `input` in document shapes. */
export function marshallInput(operation: TableOperation, input: Json): Json {
  switch (operation) {
    case 'BatchGetItem':
      return { ...input, RequestItems: perTable(input.RequestItems, (entry: Json) => mapped(entry, ['Keys'], (keys) => (keys as Json[]).map(toWire))) };
    case 'BatchWriteItem':
      return { ...input, RequestItems: perTable(input.RequestItems, (requests: Json[]) => writeRequests(requests, toWire)) };
    case 'TransactWriteItems':
      return {
        ...input,
        TransactItems: (input.TransactItems as Json[]).map((item) => {
          const out = { ...item };
          for (const part of TRANSACT_PARTS) if (out[part] !== undefined) out[part] = mapped(out[part] as Json, VALUES, toWire);
          return out;
        }),
      };
    default:
      return mapped(input, VALUES, toWire) as Json;
  }
}

/** The output of `operation` from its response body, in document shapes. */
export function unmarshallOutput(operation: TableOperation, body: Json): Json {
  switch (operation) {
    case 'Query':
    case 'Scan': {
      const out = mapped(body, ['LastEvaluatedKey'], fromWire) as Json;
      if (body.Items !== undefined) out.Items = (body.Items as Wire[]).map(fromWire);
      return out;
    }
    case 'BatchGetItem':
      return {
        ...body,
        Responses: perTable(body.Responses, (items: Wire[]) => items.map(fromWire)),
        UnprocessedKeys: perTable(body.UnprocessedKeys, (entry: Json) => mapped(entry, ['Keys'], (keys) => (keys as Wire[]).map(fromWire))),
      };
    case 'BatchWriteItem':
      return { ...body, UnprocessedItems: perTable(body.UnprocessedItems, (requests: Json[]) => writeRequests(requests, fromWire)) };
    default:
      return mapped(body, ['Item', 'Attributes'], fromWire) as Json;
  }
}

/** Binary attribute values (`B`, and each of a `BS`) travel as base64, as the SDK sends them: a JSON.stringify replacer. */
export function binaryAsBase64(this: Record<string, unknown>, key: string, value: unknown): unknown {
  // A Buffer's own toJSON has already run on `value`: the value as given is `this[key]`.
  const given = this[key];
  return given instanceof Uint8Array ? Buffer.from(given.buffer, given.byteOffset, given.byteLength).toString('base64') : value;
}

const fromBase64 = (text: string) => new Uint8Array(Buffer.from(text, 'base64'));

/** Binary attribute values back into bytes, as the SDK gives them (a JSON.parse reviver): the only strings under a `B` key, or in a `BS` list, of DynamoDB's answers. */
export function base64AsBinary(key: string, value: unknown): unknown {
  if (key === 'B' && typeof value === 'string') return fromBase64(value);
  if (key === 'BS' && Array.isArray(value)) return (value as unknown[]).map((item) => (typeof item === 'string' ? fromBase64(item) : item));
  return value;
}

/**
 * Whether an answer may hold a binary value: only those pay for the reviver. A quote inside a
 * JSON string is escaped, so `"B":` is only ever a key: a binary value's, or an attribute named `B`.
 */
export const mayHoldBinary = (text: string): boolean => text.includes('"B":') || text.includes('"BS":');
