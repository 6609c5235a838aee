import { DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';
import type { _Record } from '@aws-sdk/client-dynamodb-streams';
import { Client } from '@smithy/core/client';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { awsClientConfig } from '#local/sdk-client-config';
import { startStreamPollers, type StreamFailure } from '#local/stream-poller';
import { passesStreamFilters, SKIPPED_SORT_KEYS, STREAMED_SORT_KEYS } from '#shared/data/table/stream-filters';
import { useIsolatedTable } from '../support/table';

useIsolatedTable();

const WRITES = 40;

async function until(condition: () => boolean, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const keysOf = (event: unknown) =>
  (event as DynamoDBStreamEvent).Records.map((record) => record.dynamodb!.Keys!.PK.S!).filter((key) => key.startsWith('READER#'));

describe('local DynamoDB Streams event sources: one reader, each consumer on its own', () => {
  const retryAttempts = process.env.LOCAL_STREAM_RETRY_ATTEMPTS;
  beforeAll(() => {
    process.env.LOCAL_STREAM_RETRY_ATTEMPTS = '1';
  });
  afterAll(() => {
    if (retryAttempts === undefined) delete process.env.LOCAL_STREAM_RETRY_ATTEMPTS;
    else process.env.LOCAL_STREAM_RETRY_ATTEMPTS = retryAttempts;
  });

  it("hands every record to every consumer in order, and a consumer's failing batch holds back only that consumer until given up", async () => {
    const steady: string[] = [];
    const failing = { attempts: 0, sawTheOtherGoOn: false, handled: [] as string[] };
    const failures: StreamFailure[] = [];
    const readers = await startStreamPollers({
      endpoint: process.env.DYNAMODB_ENDPOINT!,
      tableName: process.env.TABLE_NAME!,
      consumers: [
        { functionName: 'Steady', batchSize: 10, handler: async (event) => void steady.push(...keysOf(event)) },
        {
          functionName: 'Failing',
          batchSize: 100,
          // Its first batch fails on every invocation, the first only once the other consumer has had the first half:
          // a reader that made one consumer wait for another would never get there. The batches after it succeed.
          handler: async (event) => {
            if (failures.length === 0 && keysOf(event).length) {
              if (++failing.attempts === 1) {
                await until(() => steady.length === WRITES / 2, 10_000);
                failing.sawTheOtherGoOn = true;
              }
              throw new Error('failing batch');
            }
            failing.handled.push(...keysOf(event));
          },
        },
      ],
      onFailure: async (failure) => void failures.push(failure),
    });
    const dynamodb = new DynamoDBClient(awsClientConfig(process.env.DYNAMODB_ENDPOINT));
    try {
      const written = Array.from({ length: WRITES }, (_, i) => `READER#${String(i).padStart(3, '0')}`);
      for (const key of written.slice(0, WRITES / 2))
        await dynamodb.send(new PutItemCommand({ TableName: process.env.TABLE_NAME, Item: { PK: { S: key }, SK: { S: 'R' } } }));

      // Given up after its retries, as Lambda's on-failure destination: named by the consumer, the batch's sequence numbers given.
      await until(() => failures.length === 1);
      expect(failing.sawTheOtherGoOn).toBe(true);
      expect(failing.attempts).toBe(2);
      expect(failures[0].requestContext.functionArn).toMatch(/:function:Failing$/);
      expect(failures[0].DDBStreamBatchInfo.batchSize).toBeGreaterThanOrEqual(1);

      for (const key of written.slice(WRITES / 2))
        await dynamodb.send(new PutItemCommand({ TableName: process.env.TABLE_NAME, Item: { PK: { S: key }, SK: { S: 'R' } } }));
      await until(() => steady.length === WRITES && failing.handled.includes(written[WRITES - 1]));

      // Every record once, in the order written, to the consumer that never failed.
      expect(steady).toEqual(written);
      // The failing consumer goes on after the batch it gave up, and has nothing twice.
      expect(new Set(failing.handled).size).toBe(failing.handled.length);
      expect(failing.handled).toEqual(written.slice(written.length - failing.handled.length));
      expect(failing.handled.length).toBeGreaterThanOrEqual(WRITES / 2);
    } finally {
      dynamodb.destroy();
      await readers.stop();
    }
  });

  it('hands records over as Lambda does: images in DynamoDB JSON, binary values in base64, the creation time in whole seconds', async () => {
    const given: DynamoDBStreamEvent['Records'] = [];
    const readers = await startStreamPollers({
      endpoint: process.env.DYNAMODB_ENDPOINT!,
      tableName: process.env.TABLE_NAME!,
      consumers: [{ functionName: 'Shape', batchSize: 10, handler: async (event) => void given.push(...(event as DynamoDBStreamEvent).Records) }],
      onFailure: async (failure) => {
        throw new Error(`gave up: ${JSON.stringify(failure)}`);
      },
    });
    const dynamodb = new DynamoDBClient(awsClientConfig(process.env.DYNAMODB_ENDPOINT));
    try {
      const before = Math.floor(Date.now() / 1000);
      await dynamodb.send(
        new PutItemCommand({
          TableName: process.env.TABLE_NAME,
          Item: { PK: { S: 'READER#SHAPE' }, SK: { S: 'R' }, bytes: { B: Buffer.from('hi there') }, n: { N: '1.5' } },
        }),
      );
      await until(() => given.some((record) => record.dynamodb?.Keys?.PK.S === 'READER#SHAPE'));
      const record = given.find((r) => r.dynamodb?.Keys?.PK.S === 'READER#SHAPE')!;
      expect(record).toMatchObject({
        eventID: expect.any(String),
        eventName: 'INSERT',
        eventSource: 'aws:dynamodb',
        eventVersion: '1.1',
        awsRegion: 'us-east-1',
        eventSourceARN: expect.stringContaining('/stream/'),
      });
      expect(record.dynamodb!.NewImage).toEqual({
        PK: { S: 'READER#SHAPE' },
        SK: { S: 'R' },
        bytes: { B: Buffer.from('hi there').toString('base64') },
        n: { N: '1.5' },
      });
      const created = record.dynamodb!.ApproximateCreationDateTime!;
      expect(Number.isInteger(created)).toBe(true);
      // DynamoDB Streams round the creation time down, to the minute here.
      expect(created).toBeGreaterThanOrEqual(before - 60);
      expect(created).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000));
    } finally {
      dynamodb.destroy();
      await readers.stop();
    }
  });

  it("with each mapping's filter, a consumer is given only the records it reads, and a record none reads starts no invocation", async () => {
    const given: { [consumer: string]: string[][] } = { FollowUps: [], Changes: [] };
    const seen = (consumer: string) => async (event: unknown) =>
      void given[consumer].push((event as DynamoDBStreamEvent).Records.map((record) => `${record.eventName} ${record.dynamodb!.Keys!.PK.S}`));
    const readers = await startStreamPollers({
      endpoint: process.env.DYNAMODB_ENDPOINT!,
      tableName: process.env.TABLE_NAME!,
      consumers: (['followUps', 'changes'] as const).map((reads) => ({
        functionName: reads === 'followUps' ? 'FollowUps' : 'Changes',
        batchSize: 100,
        batchingWindowMs: 500,
        handler: seen(reads === 'followUps' ? 'FollowUps' : 'Changes'),
        filter: (record) => passesStreamFilters(reads, record),
      })),
      onFailure: async (failure) => {
        throw new Error(`gave up: ${JSON.stringify(failure)}`);
      },
    });
    const dynamodb = new DynamoDBClient(awsClientConfig(process.env.DYNAMODB_ENDPOINT));
    const put = (key: string, sortKey: string, status = 'queued') =>
      dynamodb.send(new PutItemCommand({ TableName: process.env.TABLE_NAME, Item: { PK: { S: key }, SK: { S: sortKey }, status: { S: status } } }));
    try {
      // Records of every skipped kind alone, as an API request that writes only its rate window leaves them: read, and given to nobody.
      for (const sortKey of Object.values(SKIPPED_SORT_KEYS)) await put(`READER#SKIPPED#${sortKey}`, sortKey);
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      expect(given).toEqual({ FollowUps: [], Changes: [] });
      // A message stored then changed, a campaign, a template, between skipped records: the outbox is given the new message and
      // the campaign, the events and counts every record they read; each consumer in one batch.
      await put('READER#RATE', SKIPPED_SORT_KEYS.rateWindow);
      await put('READER#MESSAGE', STREAMED_SORT_KEYS.message);
      await put('READER#WAMID', SKIPPED_SORT_KEYS.platformId);
      await put('READER#MESSAGE', STREAMED_SORT_KEYS.message, 'sent');
      await put('READER#CAMPAIGN', STREAMED_SORT_KEYS.campaign);
      await put('READER#TEMPLATE', 'welcome#en');
      await put('READER#COUNTS', SKIPPED_SORT_KEYS.messageCounts);
      await until(() => given.FollowUps.flat().length === 2 && given.Changes.flat().length === 4);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(given).toEqual({
        FollowUps: [['INSERT READER#MESSAGE', 'INSERT READER#CAMPAIGN']],
        Changes: [['INSERT READER#MESSAGE', 'MODIFY READER#MESSAGE', 'INSERT READER#CAMPAIGN', 'INSERT READER#TEMPLATE']],
      });
    } finally {
      dynamodb.destroy();
      await readers.stop();
    }
  });

  it("reads a shard's child only once every consumer is done with the shard, so an item's records stay in order across a split", async () => {
    // A scripted stream (DynamoDB Local splits no shard in a test's time): a closed parent with two records, and its open
    // child with a third, all of one item. The parent's first batch is slow, so a reader that read both at once would
    // hand the child's record over first.
    const record = (n: number): _Record => ({
      eventID: `e${n}`,
      eventName: 'MODIFY',
      dynamodb: { Keys: { PK: { S: `READER#SPLIT` }, SK: { S: String(n) } }, SequenceNumber: String(n), StreamViewType: 'NEW_AND_OLD_IMAGES' },
    });
    const pages: Record<string, { Records: _Record[]; NextShardIterator?: string }> = {
      'parent-0': { Records: [record(1)], NextShardIterator: 'parent-1' },
      'parent-1': { Records: [record(2)] },
      'child-0': { Records: [record(3)], NextShardIterator: 'child-1' },
      'child-1': { Records: [], NextShardIterator: 'child-1' },
    };
    const childReadAfter: number[] = [];
    const childStartedFrom: string[] = [];
    const handled: { [consumer: string]: string[] } = { Slow: [], Quick: [] };
    const answers: Record<string, (input: Record<string, string>) => unknown> = {
      DescribeTable: () => ({ Table: { LatestStreamArn: 'arn:aws:dynamodb:us-east-1:000000000000:table/t/stream/s' } }),
      // The shards come one a page, as DescribeStream pages a stream with more than its limit of shards.
      DescribeStream: (input) =>
        input.ExclusiveStartShardId === 'parent'
          ? { StreamDescription: { Shards: [{ ShardId: 'child', ParentShardId: 'parent', SequenceNumberRange: { StartingSequenceNumber: '3' } }] } }
          : {
              StreamDescription: {
                Shards: [{ ShardId: 'parent', SequenceNumberRange: { StartingSequenceNumber: '1', EndingSequenceNumber: '2' } }],
                LastEvaluatedShardId: 'parent',
              },
            },
      GetShardIterator: (input) => {
        if (input.ShardId === 'child') childStartedFrom.push(input.ShardIteratorType);
        return { ShardIterator: `${input.ShardId}-0` };
      },
      GetRecords: (input) => {
        if (input.ShardIterator === 'child-0') childReadAfter.push(handled.Slow.length, handled.Quick.length);
        return pages[input.ShardIterator];
      },
    };
    // Every SDK client's calls go through their base class's `send`: the table's and the stream's, scripted by command.
    const scripted = jest.spyOn(Client.prototype, 'send').mockImplementation((async (command: { input: Record<string, string> }) => {
      const operation = command.constructor.name.replace(/Command$/, '');
      const answer = answers[operation];
      if (!answer) throw new Error(`unexpected call ${operation}`);
      return answer(command.input);
    }) as never);
    const sortKeys = (event: unknown) => (event as DynamoDBStreamEvent).Records.map((r) => r.dynamodb!.Keys!.SK.S!);
    const readers = await startStreamPollers({
      endpoint: process.env.DYNAMODB_ENDPOINT!,
      tableName: process.env.TABLE_NAME!,
      consumers: [
        {
          functionName: 'Slow',
          batchSize: 1,
          handler: async (event) => {
            if (sortKeys(event).includes('1')) await new Promise((resolve) => setTimeout(resolve, 600));
            handled.Slow.push(...sortKeys(event));
          },
        },
        { functionName: 'Quick', batchSize: 1, handler: async (event) => void handled.Quick.push(...sortKeys(event)) },
      ],
      onFailure: async (failure) => {
        throw new Error(`gave up: ${JSON.stringify(failure)}`);
      },
    });
    try {
      await until(() => handled.Slow.length === 3 && handled.Quick.length === 3, 10_000);
      expect(handled).toEqual({ Slow: ['1', '2', '3'], Quick: ['1', '2', '3'] });
      // The child was read once, after both consumers had the parent's two records, and from its beginning (open at the
      // reader's start, it would otherwise be read from its latest point, and miss what was written to it meanwhile).
      expect(childReadAfter).toEqual([2, 2]);
      expect(childStartedFrom).toEqual(['TRIM_HORIZON']);
    } finally {
      await readers.stop();
      scripted.mockRestore();
    }
  });
});
