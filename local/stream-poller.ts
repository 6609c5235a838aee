import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type _Record,
} from '@aws-sdk/client-dynamodb-streams';
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { awsClientConfig } from '#shared/config';
import type { Handler } from '#local/handlers';
import { lambdaContext } from '#local/lambda-context';

const POLL_MS = 100;
const RETRY_MS = 1000;

function toRecord(record: _Record, streamArn: string): DynamoDBRecord {
  return {
    eventID: record.eventID,
    eventName: record.eventName as DynamoDBRecord['eventName'],
    eventVersion: '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: 'us-east-1',
    eventSourceARN: streamArn,
    // Lambda hands over the creation time as epoch seconds; the SDK parses it into a Date.
    dynamodb: {
      ...(record.dynamodb as DynamoDBRecord['dynamodb']),
      ApproximateCreationDateTime: record.dynamodb?.ApproximateCreationDateTime ? Math.floor(new Date(record.dynamodb.ApproximateCreationDateTime).getTime() / 1000) : undefined,
    },
  };
}

/**
 * Lambda's DynamoDB Streams event source, locally: reads every shard of the table's stream in
 * order and hands batches to the handler; a batch whose invocation throws is retried until it
 * succeeds (the iterator only moves on after success), as Lambda does.
 */
export async function startStreamPoller(options: { endpoint: string; tableName: string; functionName: string; handler: Handler; batchSize: number }) {
  const config = awsClientConfig(options.endpoint);
  const table = new DynamoDBClient(config);
  const streams = new DynamoDBStreamsClient(config);
  const { Table } = await table.send(new DescribeTableCommand({ TableName: options.tableName }));
  table.destroy();
  const streamArn = Table!.LatestStreamArn!;
  const iterators = new Map<string, string | null>();
  let running = true;

  /** Shards present at start are read from their latest point; shards that appear later, from their beginning. */
  async function discover(initial: boolean) {
    const { StreamDescription } = await streams.send(new DescribeStreamCommand({ StreamArn: streamArn }));
    for (const shard of StreamDescription?.Shards ?? []) {
      if (iterators.has(shard.ShardId!)) continue;
      const type = initial && !shard.SequenceNumberRange?.EndingSequenceNumber ? 'LATEST' : 'TRIM_HORIZON';
      const { ShardIterator } = await streams.send(new GetShardIteratorCommand({ StreamArn: streamArn, ShardId: shard.ShardId!, ShardIteratorType: type }));
      iterators.set(shard.ShardId!, ShardIterator ?? null);
    }
  }

  async function pollShard(shardId: string, iterator: string) {
    const page = await streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: options.batchSize }));
    const records = page.Records ?? [];
    if (records.length) {
      const event: DynamoDBStreamEvent = { Records: records.map((record) => toRecord(record, streamArn)) };
      for (;;) {
        try {
          await options.handler(event, lambdaContext(options.functionName));
          break;
        } catch (error) {
          if (!running) return;
          console.error(`${options.functionName} failed a stream batch; retrying`, error);
          await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
        }
      }
    }
    iterators.set(shardId, page.NextShardIterator ?? null);
  }

  await discover(true);
  const loop = (async () => {
    let round = 0;
    while (running) {
      try {
        if (++round % 20 === 0) await discover(false);
        await Promise.all([...iterators].filter(([, it]) => it).map(([shardId, it]) => pollShard(shardId, it!)));
      } catch (error) {
        if (running) console.error(`${options.functionName} stream poller error`, error);
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  })();

  return {
    stop: async () => {
      running = false;
      await loop;
      streams.destroy();
    },
  };
}
