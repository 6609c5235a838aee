import type { DynamoDBRecord } from 'aws-lambda';
import { AwsJsonClient, perEndpoint } from '#shared/aws/json-protocol';
import { env } from '#shared/config';

/** What Lambda's on-failure destination says of a stream batch it gave up on (the records themselves stay in the stream for 24 hours). */
export interface StreamBatchInfo {
  shardId: string;
  startSequenceNumber: string;
  endSequenceNumber: string;
  streamArn: string;
}

/** DynamoDB Streams' JSON protocol. Its answers' items stay as sent (binary values in base64), as Lambda hands records over. */
export const DYNAMODB_STREAMS = {
  signingName: 'dynamodb',
  endpointPrefix: 'streams.dynamodb',
  targetPrefix: 'DynamoDBStreams_20120810',
  jsonVersion: '1.0',
  serviceId: 'DynamoDB Streams',
} as const;

/** A stream record as GetRecords answers it. */
export interface StreamRecord {
  eventID?: string;
  eventName?: DynamoDBRecord['eventName'];
  dynamodb?: DynamoDBRecord['dynamodb'] & { SequenceNumber?: string };
}

/** DynamoDB Local serves the streams on the table's endpoint. */
const streams = perEndpoint(
  () => env.dynamodbEndpoint,
  (endpoint) => new AwsJsonClient(DYNAMODB_STREAMS, endpoint),
);

/** The records of a failed batch, read again from the stream, in the shape Lambda hands them over. */
export async function readStreamBatch(info: StreamBatchInfo): Promise<DynamoDBRecord[]> {
  const { ShardIterator } = await streams().call<{ ShardIterator?: string }>('GetShardIterator', {
    StreamArn: info.streamArn,
    ShardId: info.shardId,
    ShardIteratorType: 'AT_SEQUENCE_NUMBER',
    SequenceNumber: info.startSequenceNumber,
  });
  const end = BigInt(info.endSequenceNumber);
  const records: DynamoDBRecord[] = [];
  let iterator = ShardIterator;
  // A page may come back empty before the end of an open shard; a few in a row mean the range is read.
  for (let emptyPages = 0; iterator && emptyPages < 3; ) {
    const page = await streams().call<{ Records?: StreamRecord[]; NextShardIterator?: string }>('GetRecords', { ShardIterator: iterator });
    for (const record of page.Records ?? []) {
      if (BigInt(record.dynamodb!.SequenceNumber!) > end) return records;
      records.push(asLambdaRecord(record, info.streamArn));
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
