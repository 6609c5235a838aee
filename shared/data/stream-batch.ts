import { type AttributeValue, DynamoDBStreamsClient, GetRecordsCommand, GetShardIteratorCommand, type _Record } from '@aws-sdk/client-dynamodb-streams';
import type { AttributeValue as LambdaAttributeValue, DynamoDBRecord } from 'aws-lambda';
import { perEndpoint, serviceClientConfig, withoutSdkLogger } from '#shared/aws/clients';
import { env } from '#shared/config';

/** What Lambda's on-failure destination says of a stream batch it gave up on (the records themselves stay in the stream for 24 hours). */
export interface StreamBatchInfo {
  shardId: string;
  startSequenceNumber: string;
  endSequenceNumber: string;
  streamArn: string;
}

/** A stream record in the shape Lambda hands it over (images in DynamoDB's JSON, binary values in base64, the creation time in epoch seconds). */
export interface StreamRecord {
  eventID?: string;
  eventName?: DynamoDBRecord['eventName'];
  dynamodb?: DynamoDBRecord['dynamodb'] & { SequenceNumber?: string };
}

type Image = Record<string, LambdaAttributeValue>;

const base64 = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');

/** A value as Lambda's event holds it: the SDK reads binary values into bytes, Lambda hands them over in base64. */
function lambdaValue(value: AttributeValue): LambdaAttributeValue {
  if (value.B !== undefined) return { B: base64(value.B) };
  if (value.BS !== undefined) return { BS: value.BS.map(base64) };
  if (value.M !== undefined) return { M: lambdaImage(value.M) };
  if (value.L !== undefined) return { L: value.L.map(lambdaValue) };
  return value as LambdaAttributeValue;
}

const lambdaImage = (image: Record<string, AttributeValue>): Image =>
  Object.fromEntries(Object.entries(image).map(([name, value]) => [name, lambdaValue(value)]));

/** A record as GetRecords gives it through the SDK, in the shape Lambda hands it over (the creation time in whole seconds). */
export function lambdaStreamRecord({ eventID, eventName, dynamodb }: _Record): StreamRecord {
  if (!dynamodb) return { eventID, eventName };
  const { ApproximateCreationDateTime: created, Keys, NewImage, OldImage, ...rest } = dynamodb;
  return {
    eventID,
    eventName,
    dynamodb: {
      ...rest,
      ...(created && { ApproximateCreationDateTime: Math.floor(created.getTime() / 1000) }),
      ...(Keys && { Keys: lambdaImage(Keys) }),
      ...(NewImage && { NewImage: lambdaImage(NewImage) }),
      ...(OldImage && { OldImage: lambdaImage(OldImage) }),
    },
  };
}

/** DynamoDB Local serves the streams on the table's endpoint. */
const streams = perEndpoint(
  () => env.dynamodbEndpoint,
  (endpoint) => withoutSdkLogger(new DynamoDBStreamsClient(serviceClientConfig(endpoint))),
);

/** The records of a failed batch, read again from the stream, in the shape Lambda hands them over. */
export async function readStreamBatch(info: StreamBatchInfo): Promise<DynamoDBRecord[]> {
  const { ShardIterator } = await streams().send(
    new GetShardIteratorCommand({
      StreamArn: info.streamArn,
      ShardId: info.shardId,
      ShardIteratorType: 'AT_SEQUENCE_NUMBER',
      SequenceNumber: info.startSequenceNumber,
    }),
  );
  const end = BigInt(info.endSequenceNumber);
  const records: DynamoDBRecord[] = [];
  let iterator = ShardIterator;
  // A page may come back empty before the end of an open shard; a few in a row mean the range is read.
  for (let emptyPages = 0; iterator && emptyPages < 3; ) {
    const page = await streams().send(new GetRecordsCommand({ ShardIterator: iterator }));
    for (const record of page.Records ?? []) {
      if (BigInt(record.dynamodb!.SequenceNumber!) > end) return records;
      records.push(asLambdaRecord(lambdaStreamRecord(record), info.streamArn));
    }
    emptyPages = page.Records?.length ? 0 : emptyPages + 1;
    iterator = page.NextShardIterator;
  }
  return records;
}

function asLambdaRecord(record: StreamRecord, streamArn: string): DynamoDBRecord {
  return {
    eventID: record.eventID,
    eventName: record.eventName,
    eventSource: 'aws:dynamodb',
    eventSourceARN: streamArn,
    dynamodb: { ...record.dynamodb, ApproximateCreationDateTime: undefined },
  };
}
