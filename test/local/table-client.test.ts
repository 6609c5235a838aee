import { createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { awsClientConfig } from '#local/sdk-client-config';
import { TableClient } from '#shared/data/table/client';
import {
  BatchGetCommand,
  BatchWriteCommand,
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  ScanCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '#shared/data/table/commands';
import { WRITE_TOKEN } from '#shared/data/table/repeatable-writes';
import { cancellationReasons, failedConditions } from '#shared/data/table/transact';
import { startFaultProxy } from '#local/fault-proxy';
import { useIsolatedTable } from '../support/table';

useIsolatedTable();

/**
 * The table's client (shared/data/table/client.ts, the SDK's document client with the service's
 * settings) against DynamoDB Local: items of every kind of value go out and come back as written,
 * DynamoDB's refusals arrive as the SDK's errors (by name, with their items marshalled), throttles
 * and server errors are retried until they pass or the call's attempts run out, and a transaction
 * keeps one ClientRequestToken across its retries.
 */
describe('the table client', () => {
  const table = () => process.env.TABLE_NAME!;
  const client = () => new TableClient(process.env.DYNAMODB_ENDPOINT);
  const key = (name: string, sk = 'ITEM') => ({ PK: `TEST#CLIENT#${name}`, SK: sk });

  test('an item of every kind of value is written and read back as written; undefined values are left out', async () => {
    const item = {
      ...key('kinds'),
      text: 'héllo ✓',
      count: 42,
      ratio: 0.125,
      negative: -7,
      flag: true,
      nothing: null,
      list: [1, 'two', { three: 3 }],
      map: { nested: { deeper: ['x'] }, empty: {} },
      strings: new Set(['a', 'b']),
      numbers: new Set([1, 2]),
      bytes: new Uint8Array([1, 2, 3]),
      missing: undefined,
    };
    await client().send(new PutCommand({ TableName: table(), Item: item }));
    const { Item } = await client().send(new GetCommand({ TableName: table(), Key: key('kinds'), ConsistentRead: true }));
    const { missing, ...written } = item;
    expect(missing).toBeUndefined();
    // With the write token every put carries (shared/data/table/repeatable-writes.ts).
    expect(Item).toEqual({ ...written, [WRITE_TOKEN]: expect.any(String) });
    expect(Item).not.toHaveProperty('missing');
    // The SDK reads the same item the same way.
    const sdk = new DynamoDBClient(awsClientConfig(process.env.DYNAMODB_ENDPOINT));
    const raw = await sdk.send(new GetItemCommand({ TableName: table(), Key: { PK: { S: key('kinds').PK }, SK: { S: 'ITEM' } } }));
    sdk.destroy();
    expect(raw.Item?.strings).toEqual({ SS: ['a', 'b'] });
    expect(raw.Item?.count).toEqual({ N: '42' });
  });

  test('updates and deletes answer with the attributes asked for; a missing item reads as none', async () => {
    const updated = await client().send(
      new UpdateCommand({
        TableName: table(),
        Key: key('counter'),
        UpdateExpression: 'ADD n :one SET #label = :label',
        ExpressionAttributeNames: { '#label': 'label' },
        ExpressionAttributeValues: { ':one': 1, ':label': 'first' },
        ReturnValues: 'ALL_NEW',
      }),
    );
    expect(updated.Attributes).toMatchObject({ ...key('counter'), n: 1, label: 'first' });
    const deleted = await client().send(new DeleteCommand({ TableName: table(), Key: key('counter'), ReturnValues: 'ALL_OLD' }));
    expect(deleted.Attributes).toMatchObject({ n: 1, label: 'first' });
    expect((await client().send(new GetCommand({ TableName: table(), Key: key('counter'), ConsistentRead: true }))).Item).toBeUndefined();
  });

  test('queries and scans page with their last key; batches write and read many items', async () => {
    const items = Array.from({ length: 30 }, (_, i) => ({ ...key('paged', `ITEM#${String(i).padStart(2, '0')}`), i }));
    const written = await client().send(new BatchWriteCommand({ RequestItems: { [table()]: items.slice(0, 25).map((Item) => ({ PutRequest: { Item } })) } }));
    expect(written.UnprocessedItems?.[table()] ?? []).toEqual([]);
    await client().send(new BatchWriteCommand({ RequestItems: { [table()]: items.slice(25).map((Item) => ({ PutRequest: { Item } })) } }));
    const query = (ExclusiveStartKey?: Record<string, unknown>) =>
      client().send(
        new QueryCommand({
          TableName: table(),
          KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
          ExpressionAttributeValues: { ':pk': key('paged').PK, ':prefix': 'ITEM#' },
          Limit: 20,
          ExclusiveStartKey,
        }),
      );
    const first = await query();
    expect(first.Items?.map((item) => item.i)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(first.LastEvaluatedKey).toEqual(key('paged', 'ITEM#19'));
    const second = await query(first.LastEvaluatedKey);
    expect(second.Items?.map((item) => item.i)).toEqual([20, 21, 22, 23, 24, 25, 26, 27, 28, 29]);
    expect(second.LastEvaluatedKey).toBeUndefined();

    const read = await client().send(new BatchGetCommand({ RequestItems: { [table()]: { Keys: items.slice(0, 10).map(({ PK, SK }) => ({ PK, SK })) } } }));
    expect(read.Responses?.[table()]?.map((item) => item.i).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(read.UnprocessedKeys).toEqual({});

    const scanned = await client().send(
      new ScanCommand({ TableName: table(), FilterExpression: 'PK = :pk AND i >= :from', ExpressionAttributeValues: { ':pk': key('paged').PK, ':from': 28 } }),
    );
    expect(scanned.Items?.map((item) => item.i).sort()).toEqual([28, 29]);
  });

  test("a refused condition is the SDK's error by name, with the item marshalled only when asked for", async () => {
    await client().send(new PutCommand({ TableName: table(), Item: { ...key('taken'), owner: 'first' } }));
    const plain = await client()
      .send(new PutCommand({ TableName: table(), Item: { ...key('taken'), owner: 'second' }, ConditionExpression: 'attribute_not_exists(PK)' }))
      .catch((error: Error) => error);
    expect(plain).toBeInstanceOf(Error);
    expect((plain as Error).name).toBe('ConditionalCheckFailedException');
    expect((plain as Error).message).toMatch(/conditional request failed/i);
    expect(plain).toMatchObject({ $fault: 'client', $metadata: { httpStatusCode: 400 } });
    expect(plain).not.toHaveProperty('Item');
    const asked = await client()
      .send(
        new UpdateCommand({
          TableName: table(),
          Key: key('taken'),
          UpdateExpression: 'SET #owner = :me',
          ConditionExpression: '#owner = :nobody',
          ExpressionAttributeNames: { '#owner': 'owner' },
          ExpressionAttributeValues: { ':me': 'third', ':nobody': 'nobody' },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      )
      .catch((error: Error) => error);
    expect((asked as Error).name).toBe('ConditionalCheckFailedException');
    expect((asked as { Item?: Record<string, unknown> }).Item?.owner).toEqual({ S: 'first' });
  });

  test("a cancelled transaction names each item's reason, and a transaction that passes writes all its items", async () => {
    await client().send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: table(), Item: { ...key('pair', 'A'), v: 1 }, ConditionExpression: 'attribute_not_exists(PK)' } },
          { Update: { TableName: table(), Key: key('pair', 'B'), UpdateExpression: 'ADD v :two', ExpressionAttributeValues: { ':two': 2 } } },
        ],
      }),
    );
    const again = await client()
      .send(
        new TransactWriteCommand({
          TransactItems: [
            { ConditionCheck: { TableName: table(), Key: key('pair', 'B'), ConditionExpression: 'v = :two', ExpressionAttributeValues: { ':two': 2 } } },
            {
              Put: {
                TableName: table(),
                Item: { ...key('pair', 'A'), v: 9 },
                ConditionExpression: 'attribute_not_exists(PK)',
                ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
              },
            },
          ],
        }),
      )
      .catch((error: Error) => error);
    expect((again as Error).name).toBe('TransactionCanceledException');
    expect(cancellationReasons(again)?.map((reason) => reason.Code)).toEqual(['None', 'ConditionalCheckFailed']);
    expect(cancellationReasons(again)?.[1].Item?.v).toEqual({ N: '1' });
    expect(failedConditions(again)).toEqual([1]);
    const { Item } = await client().send(new GetCommand({ TableName: table(), Key: key('pair', 'A'), ConsistentRead: true }));
    expect(Item?.v).toBe(1);
  });

  test('throttles and server errors are retried until they pass; when every attempt is refused, the last refusal is thrown by name', async () => {
    const proxy = await startFaultProxy({ target: process.env.DYNAMODB_ENDPOINT!, kind: 'dynamodb' });
    try {
      const through = new TableClient(proxy.url);
      // A quarter refused: a call loses all 8 attempts once in 65,000 (at a half, one of 20 calls did in about 1 run of 13).
      proxy.setFaults({ throttle_share: 0.15, server_error_share: 0.1 });
      for (let i = 0; i < 40; i++) await through.send(new PutCommand({ TableName: table(), Item: { ...key('retried', `ITEM#${i}`), i } }));
      expect(proxy.counts.throttled + proxy.counts.server_errors).toBeGreaterThan(0);
      const { Count } = await client().send(
        new QueryCommand({ TableName: table(), KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': key('retried').PK }, Select: 'COUNT' }),
      );
      expect(Count).toBe(40);

      proxy.setFaults({ throttle_share: 0, server_error_share: 1 });
      const before = proxy.counts.server_errors;
      const failed = await through.send(new GetCommand({ TableName: table(), Key: key('retried', 'ITEM#0') })).catch((error: Error) => error);
      expect((failed as Error).name).toBe('InternalServerError');
      expect(failed).toMatchObject({ $fault: 'server', $metadata: { httpStatusCode: 500 } });
      // Eight attempts (shared/aws/clients.ts).
      expect(proxy.counts.server_errors - before).toBe(8);
      through.destroy();
    } finally {
      await proxy.stop();
    }
  });

  test('a transaction whose answer was lost is retried with the same ClientRequestToken, and applied once', async () => {
    const tokens: string[] = [];
    // The first attempt is applied and its answer dropped; the retry gets its answer.
    let attempts = 0;
    const dropper = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks);
        const target = String(request.headers['x-amz-target']);
        if (target.endsWith('.TransactWriteItems')) tokens.push((JSON.parse(body.toString('utf8')) as { ClientRequestToken: string }).ClientRequestToken);
        const upstream = new URL(process.env.DYNAMODB_ENDPOINT!);
        const forwarded = httpRequest(
          { host: upstream.hostname, port: upstream.port, method: request.method, path: request.url, headers: request.headers },
          (answer) => {
            const answered: Buffer[] = [];
            answer.on('data', (chunk: Buffer) => answered.push(chunk));
            answer.on('end', () => {
              // Applied by DynamoDB Local; its answer never reaches the client.
              if (target.endsWith('.TransactWriteItems') && attempts++ === 0) return request.socket.destroy();
              response.writeHead(answer.statusCode ?? 502, answer.headers).end(Buffer.concat(answered));
            });
          },
        );
        forwarded.on('error', () => response.destroy());
        forwarded.end(body);
      });
    });
    await new Promise<void>((resolve) => dropper.listen(0, '127.0.0.1', resolve));
    const through = new TableClient(`http://127.0.0.1:${(dropper.address() as AddressInfo).port}`);
    try {
      await through.send(
        new TransactWriteCommand({
          TransactItems: [{ Update: { TableName: table(), Key: key('transacted'), UpdateExpression: 'ADD n :one', ExpressionAttributeValues: { ':one': 1 } } }],
        }),
      );
      expect(tokens).toHaveLength(2);
      expect(tokens[0]).toMatch(/^[0-9a-f-]{36}$/);
      expect(tokens[1]).toBe(tokens[0]);
      const { Item } = await client().send(new GetCommand({ TableName: table(), Key: key('transacted'), ConsistentRead: true }));
      expect(Item?.n).toBe(1);
    } finally {
      through.destroy();
      dropper.closeAllConnections();
      await new Promise((resolve) => dropper.close(resolve));
    }
  });

  test("a request is the SDK's: DynamoDB's JSON protocol, signed with Signature V4", async () => {
    let seen: { headers: IncomingHttpHeaders; body: string } | undefined;
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        seen = { headers: request.headers, body: Buffer.concat(chunks).toString('utf8') };
        response.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const scripted = new TableClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
      const { Item } = await scripted.send(new GetCommand({ TableName: 'scripted', Key: { PK: 'A', SK: 'B' } }));
      expect(Item).toBeUndefined();
      expect(seen?.headers['x-amz-target']).toBe('DynamoDB_20120810.GetItem');
      expect(seen?.headers['content-type']).toBe('application/x-amz-json-1.0');
      expect(seen?.headers.authorization).toMatch(
        /^AWS4-HMAC-SHA256 Credential=local\/\d{8}\/[a-z0-9-]+\/dynamodb\/aws4_request, SignedHeaders=[a-z0-9;-]*x-amz-target[a-z0-9;-]*, Signature=[0-9a-f]{64}$/,
      );
      expect(JSON.parse(seen!.body)).toEqual({ TableName: 'scripted', Key: { PK: { S: 'A' }, SK: { S: 'B' } } });
      scripted.destroy();
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
