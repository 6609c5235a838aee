import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DescribeStreamCommand, DynamoDBStreamsClient, GetRecordsCommand, GetShardIteratorCommand, type Shard } from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { serviceClientConfig, withoutSdkLogger } from '#shared/aws/clients';
import { lambdaStreamRecord, type StreamRecord } from '#shared/data/stream-batch';
import type { Handler } from '#local/handlers';
import { lambdaContext } from '#local/lambda-context';
import { runAsEventSource } from '#local/function-context';

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

/** A record read (in Lambda's shape: images in DynamoDB's JSON, binary values in base64, the creation time in whole seconds), as Lambda's event holds it. */
function toRecord(record: StreamRecord, streamArn: string): DynamoDBRecord {
  return {
    ...record,
    eventVersion: '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: 'us-east-1',
    eventSourceARN: streamArn,
  };
}

/** One function fed by the table's stream, as its event source mapping says. */
export interface StreamConsumer {
  functionName: string;
  handler: Handler;
  batchSize: number;
  /** Lambda's MaximumBatchingWindowInSeconds, in ms: how long a batch that is not full may gather records. */
  batchingWindowMs?: number;
  /** The mapping's filter criteria, as Lambda applies them: a record it rejects is in none of this consumer's batches. */
  filter?: (record: StreamRecord) => boolean;
}

/** Records of one shard read for one consumer and not yet handed over; a batch gathers until full, its window has passed, or the shard has ended. */
interface Pending {
  records: StreamRecord[];
  since: number;
  ended: boolean;
  /** The consumer's batch of this shard in progress: batches of a shard go one at a time, in order. */
  draining?: Promise<void>;
}

/**
 * Lambda's DynamoDB Streams event sources, locally: one reader of every shard of the table's
 * stream hands each record, in order, to every consumer whose filter passes it (Lambda's filter
 * criteria: a record no consumer takes starts no invocation), and each consumer batches and invokes
 * on its own: a batch whose invocation throws is retried (that consumer's later batches of the
 * shard wait, the other consumers go on), and after the retries it is reported to `onFailure` and
 * passed, as Lambda does. A shard's child is started once every consumer is done with the shard
 * (Lambda's mappings each wait for their own). In AWS each event source mapping reads the stream
 * itself, at AWS's cost; here one read serves them all, so DynamoDB Local does not serve every
 * record once per consumer.
 */
export async function startStreamPollers(options: {
  endpoint: string;
  tableName: string;
  consumers: StreamConsumer[];
  /** Where a batch goes once its retries are used up, as Lambda's on-failure destination. */
  onFailure: (failure: StreamFailure) => Promise<void>;
}) {
  const streams = withoutSdkLogger(new DynamoDBStreamsClient(serviceClientConfig(options.endpoint)));
  const table = new DynamoDBClient(serviceClientConfig(options.endpoint));
  const { Table } = await table.send(new DescribeTableCommand({ TableName: options.tableName }));
  table.destroy();
  const streamArn = Table!.LatestStreamArn!;
  /** Each event source mapping reads the stream with its function's role: one read for all is checked against each (local/iam/enforcement.ts). */
  const asEventSource = <T>(read: () => Promise<T>) =>
    runAsEventSource(
      options.consumers.map((consumer) => consumer.functionName),
      read,
    );
  const iterators = new Map<string, string | null>();
  /** Each known shard's parent, as the stream describes it: a shard split or rolled over continues its parent's records. */
  const parents = new Map<string, string | undefined>();
  /** Shards found and not yet started, with where each starts. */
  const unstarted = new Map<string, 'LATEST' | 'TRIM_HORIZON'>();
  const pending = options.consumers.map(() => new Map<string, Pending>());
  /** GetRecords returns at most 1,000 records a call. */
  const pageLimit = Math.min(1000, Math.max(...options.consumers.map((consumer) => consumer.batchSize)));
  /**
   * Records a consumer may have waiting from a shard before the reader stops reading it: enough
   * that a slower consumer does not hold back the others (in AWS each mapping reads on its own),
   * few enough to bound what is kept for one that retries a batch for its 20 attempts under load.
   */
  const maxWaiting = 10 * 1000;
  const caughtUp = (shardId: string) => pending.every((byShard) => (byShard.get(shardId)?.records.length ?? 0) < maxWaiting);
  let running = true;
  /** Read to its end, and every record of it handled (or given up) by every consumer. */
  const finished = (shardId: string) =>
    iterators.get(shardId) === null && pending.every((byShard) => !byShard.get(shardId)?.records.length && !byShard.get(shardId)?.draining);
  /** A parent this reader never saw (trimmed, or older than its start) holds nothing back. */
  const parentFinished = (shardId: string) => {
    const parent = parents.get(shardId);
    return !parent || !parents.has(parent) || finished(parent);
  };

  /**
   * Shards present at start are read from their latest point; shards that appear later, from
   * their beginning. As Lambda, a shard is started only once its parent is finished, so an item's
   * records reach each consumer in order across a split; one found before that is started from its
   * beginning when it is (its iterator taken then, so it cannot expire while it waits).
   */
  async function discover(initial: boolean) {
    const shards: Shard[] = [];
    // DescribeStream answers up to 100 shards a call; a stream kept for days has more.
    let after: string | undefined;
    do {
      const { StreamDescription } = await asEventSource(() =>
        streams.send(new DescribeStreamCommand({ StreamArn: streamArn, ...(after && { ExclusiveStartShardId: after }) })),
      );
      shards.push(...(StreamDescription?.Shards ?? []));
      after = StreamDescription?.LastEvaluatedShardId;
    } while (after);
    const found = shards.filter((shard) => !parents.has(shard.ShardId!));
    for (const shard of found) parents.set(shard.ShardId!, shard.ParentShardId);
    for (const shard of found) {
      const fromLatest = initial && !shard.SequenceNumberRange?.EndingSequenceNumber && parentFinished(shard.ShardId!);
      unstarted.set(shard.ShardId!, fromLatest ? 'LATEST' : 'TRIM_HORIZON');
    }
    await startReady();
  }

  /** Starts the shards whose parent is finished; one that fails to start is tried again next round. */
  async function startReady() {
    for (const [shardId, type] of unstarted) {
      if (!parentFinished(shardId)) continue;
      const { ShardIterator } = await asEventSource(() =>
        streams.send(new GetShardIteratorCommand({ StreamArn: streamArn, ShardId: shardId, ShardIteratorType: type })),
      );
      iterators.set(shardId, ShardIterator ?? null);
      unstarted.delete(shardId);
    }
  }

  /** Reads the shard once and hands the page to every consumer; true when the page was full (more records wait). */
  async function readShard(shardId: string, iterator: string): Promise<boolean> {
    const page = await asEventSource(() => streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: pageLimit })));
    iterators.set(shardId, page.NextShardIterator ?? null);
    const records = (page.Records ?? []).map(lambdaStreamRecord);
    options.consumers.forEach(({ filter }, i) => {
      const byShard = pending[i];
      const handed = filter ? records.filter(filter) : records;
      const shard = byShard.get(shardId) ?? { records: [], since: 0, ended: false };
      byShard.set(shardId, shard);
      if (handed.length && !shard.records.length) shard.since = Date.now();
      shard.records.push(...handed);
      shard.ended = !page.NextShardIterator;
    });
    return records.length >= pageLimit;
  }

  /** One batch to the consumer's handler, retried as Lambda retries it, then given up to `onFailure`. */
  async function invoke(consumer: StreamConsumer, shardId: string, records: StreamRecord[]) {
    const event: DynamoDBStreamEvent = { Records: records.map((record) => toRecord(record, streamArn)) };
    for (let invocation = 1; ; invocation++) {
      try {
        await consumer.handler(event, lambdaContext(consumer.functionName));
        return;
      } catch (error) {
        if (!running) return;
        if (invocation > retryAttempts()) {
          console.error(`${consumer.functionName} gave up on a stream batch after ${invocation} invocations`, error);
          await options.onFailure({
            requestContext: {
              condition: 'RetryAttemptsExhausted',
              functionArn: `arn:aws:lambda:us-east-1:000000000000:function:${consumer.functionName}`,
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
          return;
        }
        console.error(`${consumer.functionName} failed a stream batch; retrying`, error);
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
        if (!running) return;
      }
    }
  }

  /** Hands the consumer the batches of the shard that are ready, one after another; later records wait for the next call. */
  async function drain(consumer: StreamConsumer, shardId: string, shard: Pending) {
    const ready = () =>
      shard.records.length >= consumer.batchSize || (shard.records.length > 0 && (shard.ended || Date.now() - shard.since >= (consumer.batchingWindowMs ?? 0)));
    while (running && ready()) {
      const records = shard.records.splice(0, consumer.batchSize);
      await invoke(consumer, shardId, records);
      // What was read meanwhile gathers from now on, as the next batch of a Lambda poller would.
      if (shard.records.length) shard.since = Date.now();
    }
  }

  /** Starts each consumer's ready batches of each shard, unless one of its batches of that shard is in progress. */
  function handOver() {
    options.consumers.forEach((consumer, i) => {
      for (const [shardId, shard] of pending[i]) {
        // A shard with nothing waiting starts no batch: its parent's `finished` must not see one in progress.
        if (shard.draining || !shard.records.length) continue;
        shard.draining = drain(consumer, shardId, shard)
          .catch((error) => {
            if (running) console.error(`${consumer.functionName} stream poller error`, error);
          })
          .finally(() => {
            shard.draining = undefined;
          });
      }
    });
  }

  const names = options.consumers.map((consumer) => consumer.functionName).join(', ');
  await discover(true);
  const loop = (async () => {
    let round = 0;
    while (running) {
      try {
        if (++round % 20 === 0) await discover(false);
        else if (unstarted.size) await startReady();
        const reads = await Promise.allSettled(
          [...iterators].filter(([shardId, it]) => it && caughtUp(shardId)).map(([shardId, it]) => readShard(shardId, it!)),
        );
        for (const read of reads) if (read.status === 'rejected' && running) console.error(`${names} stream reader error`, read.reason);
        // As Lambda, a shard with more records waiting is read again at once; the base rate applies once it has caught up.
        if (reads.some((read) => read.status === 'fulfilled' && read.value)) continue;
      } catch (error) {
        if (running) console.error(`${names} stream reader error`, error);
      } finally {
        handOver();
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  })();

  return {
    stop: async () => {
      running = false;
      await loop;
      await Promise.all(pending.flatMap((byShard) => [...byShard.values()].flatMap((shard) => (shard.draining ? [shard.draining] : []))));
      streams.destroy();
    },
  };
}

/** One function's stream event source (startStreamPollers with one consumer). */
export const startStreamPoller = ({
  endpoint,
  tableName,
  onFailure,
  ...consumer
}: StreamConsumer & { endpoint: string; tableName: string; onFailure: (failure: StreamFailure) => Promise<void> }) =>
  startStreamPollers({ endpoint, tableName, onFailure, consumers: [consumer] });
