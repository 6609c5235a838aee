import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';

/** A table stream record's image (new or old), as Lambda hands it over. */
export type StreamImage = NonNullable<NonNullable<DynamoDBRecord['dynamodb']>['NewImage']>;

/** DynamoDB Local's stream gives an empty map (`{ M: {} }`) as `{}`; put the type back before unmarshalling. */
function repair(value: Record<string, unknown>): AttributeValue {
  if (Object.keys(value).length === 0) return { M: {} };
  if (value.M) return { M: Object.fromEntries(Object.entries(value.M as Record<string, Record<string, unknown>>).map(([k, v]) => [k, repair(v)])) };
  if (value.L) return { L: (value.L as Record<string, unknown>[]).map(repair) };
  return value as unknown as AttributeValue;
}

/** A stream record's image as a plain object, or undefined when the record has none. */
export function streamImage(image: StreamImage | undefined): Record<string, unknown> | undefined {
  if (!image) return undefined;
  return unmarshall(Object.fromEntries(Object.entries(image).map(([k, v]) => [k, repair(v as Record<string, unknown>)])));
}

/**
 * The image as a plain object when its key is one `isMine` recognises, else undefined: how each
 * data module picks its own records out of the stream (the rest of an image is unmarshalled only then).
 */
export function streamItemOf(image: StreamImage | undefined, isMine: (key: { PK: string; SK: string }) => boolean): Record<string, unknown> | undefined {
  const [PK, SK] = [image?.PK?.S, image?.SK?.S];
  return PK !== undefined && SK !== undefined && isMine({ PK, SK }) ? streamImage(image) : undefined;
}

/** The workspace of an item whose partition key starts `WS#{workspace id}#` (every workspace record's does), for records that carry no `workspace_id`. */
export const workspaceInKey = (item: Record<string, unknown>): string => String(item.PK).split('#')[1];
