import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';

type Image = NonNullable<NonNullable<DynamoDBRecord['dynamodb']>['NewImage']>;

/** The streams client reads an empty map (`{ M: {} }`) back as `{}`; put the type back before unmarshalling. */
function repair(value: Record<string, unknown>): AttributeValue {
  if (Object.keys(value).length === 0) return { M: {} };
  if (value.M) return { M: Object.fromEntries(Object.entries(value.M as Record<string, Record<string, unknown>>).map(([k, v]) => [k, repair(v)])) };
  if (value.L) return { L: (value.L as Record<string, unknown>[]).map(repair) };
  return value as unknown as AttributeValue;
}

/** A stream record's image as a plain object, or undefined when the record has none. */
export function streamImage(image: Image | undefined): Record<string, unknown> | undefined {
  if (!image) return undefined;
  return unmarshall(Object.fromEntries(Object.entries(image).map(([k, v]) => [k, repair(v as Record<string, unknown>)])));
}
