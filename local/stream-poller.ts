import { DescribeStreamCommand, DynamoDBStreamsClient, GetRecordsCommand, GetShardIteratorCommand, type _Record } from '@aws-sdk/client-dynamodb-streams';
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { awsClientConfig, withoutSdkLogger } from '#shared/aws-client-config';
import type { Handler } from '#local/handlers';
import { lambdaContext } from '#local/lambda-context';

/** Lambda reads each shard of a DynamoDB stream four times a second (AWS Lambda developer guide, "Using Lambda with DynamoDB"); idle, each poll costs both processes CPU. */
const POLL_MS = 250;
const RETRY_MS = 1000;
/** As the CDK stack's event sources (retryAttempts 20); LOCAL_STREAM_RETRY_ATTEMPTS lowers it in tests. */
const retryAttempts = () => Number(process.env.LOCAL_STREAM_RETRY_ATTEMPTS ?? 20);

/** What Lambda's on-failure destination receives for a stream batch it gave up on. */
export interface StreamFailure {
  requestContext: { condition: 'RetryAttemptsExhausted'; functionArn: string; approximateInvokeCount: number };
  DDBStreamBatchInfo: { shardId: string; startSequenceNumber: string; endSequenceNumber: string; streamArn: string; batchSize: number };
}

function toRecord(record: _Record, streamArn: string): DynamoDBRecord {
  return {
    eventID: record.eventID,
    eventName: record.eventName,
    eventVersion: '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: 'us-east-1',
    eventSourceARN: streamArn,
    // Lambda hands over the creation time as epoch seconds; the SDK parses it into a Date.
    dynamodb: {
      ...(record.dynamodb as DynamoDBRecord['dynamodb']),
      ApproximateCreationDateTime: record.dynamodb?.ApproximateCreationDateTime
        ? Math.floor(new Date(record.dynamodb.ApproximateCreationDateTime).getTime() / 1000)
        : undefined,
    },
  };
}

/**
 * Lambda's DynamoDB Streams event source, locally: reads every shard of the table's stream in
 * order and hands batches to the handler; a batch whose invocation throws is retried (the iterator
 * waits), and after the retries it is reported to `onFailure` and passed, as Lambda does.
 */
export async function startStreamPoller(options: {
  endpoint: string;
  tableName: string;
  functionName: string;
  handler: Handler;
  batchSize: number;
  /** Lambda's MaximumBatchingWindowInSeconds, in ms: how long a batch that is not full may gather records. */
  batchingWindowMs?: number;
  /** Where a batch goes once its retries are used up, as Lambda's on-failure destination. */
  onFailure: (failure: StreamFailure) => Promise<void>;
}) {
  const config = awsClientConfig(options.endpoint);
  const table = new DynamoDBClient(config);
  // Lambda's pollers are AWS's own: the SDK's log filtering of every page (issue 29) is no work of ours to carry.
  const streams = withoutSdkLogger(new DynamoDBStreamsClient(config));
  const { Table } = await table.send(new DescribeTableCommand({ TableName: options.tableName }));
  table.destroy();
  const streamArn = Table!.LatestStreamArn!;
  const iterators = new Map<string, string | null>();
  /** Records read but not yet handed over, per shard: a batch gathers until full or its window has passed, as Lambda's batching window. */
  const gathering = new Map<string, { records: _Record[]; since: number }>();
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

  /** Reads the shard once and hands over a batch that is ready; true when the page was full (more records wait). */
  async function pollShard(shardId: string, iterator: string): Promise<boolean> {
    const buffered = gathering.get(shardId) ?? { records: [], since: 0 };
    const limit = options.batchSize - buffered.records.length;
    const page = await streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: limit }));
    const full = (page.Records?.length ?? 0) >= limit;
    iterators.set(shardId, page.NextShardIterator ?? null);
    buffered.records.push(...(page.Records ?? []));
    if (buffered.records.length && !buffered.since) buffered.since = Date.now();
    const ready = buffered.records.length >= options.batchSize || Date.now() - buffered.since >= (options.batchingWindowMs ?? 0) || !page.NextShardIterator;
    if (!ready) {
      gathering.set(shardId, buffered);
      return full;
    }
    gathering.delete(shardId);
    const records = buffered.records;
    if (records.length) {
      const event: DynamoDBStreamEvent = { Records: records.map((record) => toRecord(record, streamArn)) };
      for (let invocation = 1; ; invocation++) {
        try {
          await options.handler(event, lambdaContext(options.functionName));
          break;
        } catch (error) {
          if (!running) return false;
          if (invocation > retryAttempts()) {
            console.error(`${options.functionName} gave up on a stream batch after ${invocation} invocations`, error);
            await options.onFailure({
              requestContext: {
                condition: 'RetryAttemptsExhausted',
                functionArn: `arn:aws:lambda:us-east-1:000000000000:function:${options.functionName}`,
                approximateInvokeCount: invocation,
              },
              DDBStreamBatchInfo: {
                shardId,
                startSequenceNumber: records[0].dynamodb!.SequenceNumber!,
                endSequenceNumber: records[records.length - 1].dynamodb!.SequenceNumber!,
                streamArn,
                batchSize: records.length,
              },
            });
            break;
          }
          console.error(`${options.functionName} failed a stream batch; retrying`, error);
          await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
        }
      }
    }
    return full;
  }

  await discover(true);
  const loop = (async () => {
    let round = 0;
    while (running) {
      try {
        if (++round % 20 === 0) await discover(false);
        const backlog = await Promise.all([...iterators].filter(([, it]) => it).map(([shardId, it]) => pollShard(shardId, it!)));
        // As Lambda, a shard with more records waiting is read again at once; the base rate applies once it has caught up.
        if (backlog.some(Boolean)) continue;
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
