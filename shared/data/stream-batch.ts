import { DynamoDBStreamsClient, GetRecordsCommand, GetShardIteratorCommand, type _Record } from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBRecord } from 'aws-lambda';
import { serviceClientConfig, withoutSdkLogger } from '#shared/aws-client-config';
import { env } from '#shared/config';

/** What Lambda's on-failure destination says of a stream batch it gave up on (the records themselves stay in the stream for 24 hours). */
export interface StreamBatchInfo {
  shardId: string;
  startSequenceNumber: string;
  endSequenceNumber: string;
  streamArn: string;
}

let instance: { endpoint: string | undefined; client: DynamoDBStreamsClient } | undefined;

/** One streams client per process, like the table's (shared/data/table/client.ts): a new one only if the endpoint changes. */
function streams(): DynamoDBStreamsClient {
  const endpoint = env.dynamodbEndpoint;
  if (!instance || instance.endpoint !== endpoint) instance = { endpoint, client: withoutSdkLogger(new DynamoDBStreamsClient(serviceClientConfig(endpoint))) };
  return instance.client;
}

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
      records.push(asLambdaRecord(record, info.streamArn));
    }
    emptyPages = page.Records?.length ? 0 : emptyPages + 1;
    iterator = page.NextShardIterator;
  }
  return records;
}

function asLambdaRecord(record: _Record, streamArn: string): DynamoDBRecord {
  return {
    eventID: record.eventID,
    eventName: record.eventName,
    eventSource: 'aws:dynamodb',
    eventSourceARN: streamArn,
    dynamodb: { ...(record.dynamodb as DynamoDBRecord['dynamodb']), ApproximateCreationDateTime: undefined },
  };
}
