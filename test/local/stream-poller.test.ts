import { DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { awsClientConfig } from '#shared/aws-client-config';
import { startStreamPollers, type StreamFailure } from '#local/stream-poller';
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
});
