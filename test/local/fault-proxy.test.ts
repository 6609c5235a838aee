import { DynamoDBClient, GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, UpdateCommand } from '#shared/data/table/commands';
import { awsClientConfig } from '#local/sdk-client-config';
import { db } from '#shared/data/table/client';
import { startFaultProxy, type FaultProxy } from '#local/fault-proxy';
import { useIsolatedTable } from '../support/table';

useIsolatedTable();

/**
 * The proxy's draws, in turn rather than by chance: a share of a third then loses exactly every
 * third answer, so no call can lose all eight of its attempts. By chance, at 0.33, one of this
 * file's calls did in about one clean-clone CI run of a hundred (0.33^8 a call, 63 calls).
 */
const inTurn = () => {
  const draws = [1 / 6, 1 / 2, 5 / 6];
  let next = 0;
  return () => draws[next++ % draws.length];
};

/**
 * The fault proxy (local/fault-proxy.ts) answers as DynamoDB does when it fails, and the
 * service's table client (shared/data/table/client.ts) survives it: retried calls, and writes
 * whose answer was lost after DynamoDB applied them, neither repeated nor mistaken for another
 * writer's (shared/data/table/repeatable-writes.ts).
 */
describe('fault proxy in front of DynamoDB Local', () => {
  let proxy: FaultProxy;
  let direct: string;
  beforeAll(async () => {
    direct = process.env.DYNAMODB_ENDPOINT!;
    proxy = await startFaultProxy({ target: direct, kind: 'dynamodb', random: inTurn() });
    process.env.DYNAMODB_ENDPOINT = proxy.url;
  });
  afterEach(() => proxy.setFaults({ throttle_share: 0, server_error_share: 0, latency_share: 0, drop_share: 0 }));
  afterAll(async () => {
    process.env.DYNAMODB_ENDPOINT = direct;
    await proxy.stop();
  });

  const key = (name: string) => ({ PK: `TEST#FAULTS#${name}`, SK: 'ITEM' });
  const readDirect = async (name: string) => {
    const client = new DynamoDBClient(awsClientConfig(direct));
    const { Item } = await client.send(
      new GetItemCommand({ TableName: process.env.TABLE_NAME, Key: { PK: { S: key(name).PK }, SK: { S: 'ITEM' } }, ConsistentRead: true }),
    );
    client.destroy();
    return Item;
  };

  test('its settings are switched over HTTP, all or nothing, and bad values refused', async () => {
    const set = (body: unknown) => fetch(`${proxy.url}/_faults`, { method: 'POST', body: JSON.stringify(body) });
    expect((await set({ throttle_share: 0.5, latency_ms: 20 })).status).toBe(200);
    expect(proxy.faults).toMatchObject({ throttle_share: 0.5, latency_ms: 20 });
    expect((await set({ drop_share: 2 })).status).toBe(400);
    expect((await set({ server_error_share: 0.1, colour: 'red' })).status).toBe(400);
    expect(proxy.faults).toMatchObject({ server_error_share: 0, drop_share: 0 });
    const shown = (await (await fetch(`${proxy.url}/_faults`)).json()) as { faults: object; counts: object };
    expect(shown.faults).toMatchObject({ throttle_share: 0.5 });
    expect(Object.keys(shown.counts)).toEqual(['forwarded', 'throttled', 'server_errors', 'delayed', 'dropped']);
  });

  test('throttles and 500s are what the SDK recognises: its errors by name, refused before anything is applied', async () => {
    const once = new DynamoDBClient({ ...awsClientConfig(proxy.url), maxAttempts: 1 });
    const get = (name: string) => once.send(new GetItemCommand({ TableName: process.env.TABLE_NAME, Key: { PK: { S: key(name).PK }, SK: { S: 'ITEM' } } }));
    proxy.setFaults({ throttle_share: 1 });
    const throttled = await get('throttled').catch((error: Error) => error);
    expect(['ProvisionedThroughputExceededException', 'ThrottlingException']).toContain((throttled as Error).name);
    proxy.setFaults({ throttle_share: 0, server_error_share: 1 });
    const failed = await get('failed').catch((error: Error) => error);
    expect((failed as Error).name).toBe('InternalServerError');
    once.destroy();
  });

  test('a dropped answer: the write was applied, the caller saw no answer', async () => {
    const once = new DynamoDBClient({ ...awsClientConfig(proxy.url), maxAttempts: 1 });
    proxy.setFaults({ drop_share: 1 });
    await expect(
      once.send(new PutItemCommand({ TableName: process.env.TABLE_NAME, Item: { PK: { S: key('dropped').PK }, SK: { S: 'ITEM' } } })),
    ).rejects.toThrow();
    expect(await readDirect('dropped')).toBeDefined();
    once.destroy();
  });

  test('counters stay exact and conditional creates succeed when a third of the answers are lost after the write', async () => {
    proxy.setFaults({ drop_share: 0.33 });
    for (let i = 0; i < 30; i++) {
      await db().send(
        new UpdateCommand({ TableName: process.env.TABLE_NAME, Key: key('counter'), UpdateExpression: 'ADD n :one', ExpressionAttributeValues: { ':one': 1 } }),
      );
    }
    const creates = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        db()
          .send(new PutCommand({ TableName: process.env.TABLE_NAME, Item: { ...key(`created-${i}`), v: i }, ConditionExpression: 'attribute_not_exists(PK)' }))
          .then(
            () => 'created',
            (error: Error) => error.name,
          ),
      ),
    );
    const dropped = proxy.counts.dropped;
    proxy.setFaults({ drop_share: 0, throttle_share: 0 });
    const counter = await db().send(new GetCommand({ TableName: process.env.TABLE_NAME, Key: key('counter'), ConsistentRead: true }));
    expect(dropped).toBeGreaterThan(5);
    expect(counter.Item?.n).toBe(30);
    expect(creates).toEqual(Array(30).fill('created'));
  });

  test('a conditional write that really lost to another writer still fails, with the item only if asked for', async () => {
    proxy.setFaults({ drop_share: 0.33 });
    await db().send(new PutCommand({ TableName: process.env.TABLE_NAME, Item: { ...key('taken'), claimed_by: 'first' } }));
    const plain = await db()
      .send(
        new PutCommand({ TableName: process.env.TABLE_NAME, Item: { ...key('taken'), claimed_by: 'second' }, ConditionExpression: 'attribute_not_exists(PK)' }),
      )
      .catch((error: Error & { Item?: unknown }) => error);
    expect((plain as Error).name).toBe('ConditionalCheckFailedException');
    expect((plain as { Item?: unknown }).Item).toBeUndefined();
    const asked = await db()
      .send(
        new UpdateCommand({
          TableName: process.env.TABLE_NAME,
          Key: key('taken'),
          UpdateExpression: 'SET claimed_by = :me',
          ConditionExpression: 'claimed_by = :nobody',
          ExpressionAttributeValues: { ':me': 'third', ':nobody': 'nobody' },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      )
      .catch((error: Error & { Item?: Record<string, { S?: string }> }) => error);
    expect((asked as Error).name).toBe('ConditionalCheckFailedException');
    expect((asked as { Item?: Record<string, { S?: string }> }).Item?.claimed_by?.S).toBe('first');
    expect((await readDirect('taken'))?.claimed_by?.S).toBe('first');
  });
});
