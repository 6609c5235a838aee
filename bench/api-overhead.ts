import autocannon from 'autocannon';
import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { batchWrite } from '#shared/data/table/batch-write';
import { db, tableName } from '#shared/data/table/client';
import { apiKeyKey } from '#shared/data/api-key';
import { indexes } from '#shared/data/table/table';
import { hashSecret } from '#shared/domain/api-keys';
import { getMessage, messageKey } from '#shared/data/message';
import { newId } from '#shared/ids';
import { median, percentile, type BenchContext, type Figure } from './harness';

const CONNECTIONS = 4;
const SECONDS = 4;
const ROUNDS = 3;
const PAGE_SIZE = 20;

interface Latencies {
  p50: number;
  p95: number;
  p99: number;
  requests: number;
}

const summary = (ms: number[]): Latencies => ({ p50: percentile(ms, 50), p95: percentile(ms, 95), p99: percentile(ms, 99), requests: ms.length });

/** Steady load on one endpoint: CONNECTIONS keep-alive connections for SECONDS, every response timed. */
async function loadApi(url: string, key: string, method: 'GET' | 'POST', body?: unknown): Promise<Latencies> {
  const ms: number[] = [];
  let failures = 0;
  let instance!: autocannon.Instance;
  const finished = new Promise<void>((resolve, reject) => {
    instance = autocannon(
      {
        url,
        method,
        connections: CONNECTIONS,
        duration: SECONDS,
        headers: { authorization: `Bearer ${key}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      },
      (error, result) => {
        if (error) return reject(error);
        // Connection errors and timeouts are not responses: they would vanish from the percentiles.
        if (result.errors || result.timeouts) return reject(new Error(`${method} ${url}: ${result.errors} errors, ${result.timeouts} timeouts`));
        resolve();
      },
    );
  });
  // The instance emits (client, status, bytes, ms); @types/autocannon leaves the client out.
  (instance as NodeJS.EventEmitter).on('response', (_client: unknown, status: number, _bytes: number, responseTime: number) => {
    if (status >= 300) failures++;
    ms.push(responseTime);
  });
  await finished;
  if (failures) throw new Error(`${method} ${url}: ${failures} responses were not 2xx`);
  return summary(ms);
}

/** The same steady load, as CONNECTIONS loops issuing the raw DynamoDB calls the operation needs. */
async function loadRaw(operation: () => Promise<unknown>): Promise<Latencies> {
  const ms: number[] = [];
  const end = performance.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < end) {
        const start = performance.now();
        await operation();
        ms.push(performance.now() - start);
      }
    }),
  );
  return summary(ms);
}

/**
 * API overhead: p50/p95/p99 of POST /messages, GET /messages and GET /messages/{id} under steady
 * load, each against the raw DynamoDB Local calls the operation minimally needs, issued with the SDK
 * from this process at the same concurrency. Alternating rounds; the medians are reported.
 */
export async function benchApiOverhead(ctx: BenchContext): Promise<Figure[]> {
  const ws = await ctx.workspace();
  await ctx.call('POST', '/api/v1/templates/sync', ws.key);
  // Status webhooks off: the load measured is the API's own, plus the send pipeline it starts.
  await ctx.simulatorFaults({ no_webhooks: true });
  const sent = await ctx.call('POST', '/api/v1/messages', ws.key, { to: '+14158880000', template: 'welcome', variables: ['B'] });
  const messageId: string = sent.body.data.message_id;
  await ctx.settledUsage();
  const sample = (await getMessage(ws.id, messageId, true)) as unknown as Record<string, unknown>;
  // The least a page of messages needs: one query of one partition that holds whole messages.
  const rawListPartition = `BENCH#LIST#${ws.id}`;
  // The copies stay out of the message indexes, so the workspace's own list is unchanged.
  const { GSI2PK, GSI2SK, GSI3PK, GSI3SK, ...wholeMessage } = sample;
  await batchWrite(
    Array.from({ length: PAGE_SIZE }, () => {
      const id = newId();
      return { PutRequest: { Item: { ...wholeMessage, PK: `BENCH#${id}`, SK: 'BENCH', GSI1PK: rawListPartition, GSI1SK: id, id } } };
    }),
  );
  const authenticate = () => db().send(new GetCommand({ TableName: tableName(), Key: apiKeyKey(hashSecret(ws.key)), ConsistentRead: true }));
  const base = ctx.stack.stack.base_url;

  const endpoints: { name: string; api: () => Promise<Latencies>; raw: () => Promise<Latencies>; rawName: string }[] = [
    {
      name: 'POST /api/v1/messages',
      api: () => loadApi(`${base}/api/v1/messages`, ws.key, 'POST', { to: '+14158880001', template: 'welcome', variables: ['B'] }),
      rawName: 'GetItem (key) + PutItem (message)',
      raw: () =>
        loadRaw(async () => {
          await authenticate();
          const id = newId();
          await db().send(
            new PutCommand({
              TableName: tableName(),
              Item: { ...sample, PK: `BENCH#${id}`, SK: 'BENCH', GSI3PK: 'BENCH#LIST', GSI3SK: id, GSI2PK: 'BENCH#PHONE', GSI2SK: id, id },
            }),
          );
        }),
    },
    {
      name: 'GET /api/v1/messages',
      api: () => loadApi(`${base}/api/v1/messages?pageSize=${PAGE_SIZE}`, ws.key, 'GET'),
      rawName: `GetItem (key) + Query (${PAGE_SIZE} messages in one partition)`,
      raw: () =>
        loadRaw(async () => {
          await authenticate();
          await db().send(
            new QueryCommand({
              TableName: tableName(),
              IndexName: indexes.byParent.indexName,
              KeyConditionExpression: 'GSI1PK = :pk',
              ExpressionAttributeValues: { ':pk': rawListPartition },
              ScanIndexForward: false,
              Limit: PAGE_SIZE,
            }),
          );
        }),
    },
    {
      name: 'GET /api/v1/messages/{id}',
      api: () => loadApi(`${base}/api/v1/messages/${messageId}`, ws.key, 'GET'),
      rawName: 'GetItem (key) + GetItem (message)',
      raw: () =>
        loadRaw(async () => {
          await authenticate();
          await db().send(new GetCommand({ TableName: tableName(), Key: messageKey(ws.id, messageId) }));
        }),
    },
  ];

  const figures: Figure[] = [];
  try {
    for (const endpoint of endpoints) {
      const api: Latencies[] = [];
      const raw: Latencies[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        await ctx.settledUsage();
        raw.push(await endpoint.raw());
        await ctx.settledUsage();
        api.push(await endpoint.api());
      }
      const of = (runs: Latencies[], p: keyof Latencies) => median(runs.map((run) => run[p]));
      const rawName = `${endpoint.rawName}, ${CONNECTIONS} concurrent`;
      figures.push(
        {
          name: `${endpoint.name} p50 (${CONNECTIONS} connections, median of ${ROUNDS} × ${SECONDS} s)`,
          value: of(api, 'p50'),
          unit: 'ms',
          baseline: { name: `${rawName} p50`, value: of(raw, 'p50') },
          budget: { max: 3, of: 'ratio' },
        },
        { name: `${endpoint.name} p95`, value: of(api, 'p95'), unit: 'ms', baseline: { name: `${rawName} p95`, value: of(raw, 'p95') } },
        { name: `${endpoint.name} p99`, value: of(api, 'p99'), unit: 'ms', baseline: { name: `${rawName} p99`, value: of(raw, 'p99') } },
        { name: `${endpoint.name} requests per round`, value: of(api, 'requests'), unit: 'requests', baseline: { name: rawName, value: of(raw, 'requests') } },
      );
    }
  } finally {
    await ctx.simulatorFaults({ no_webhooks: false });
  }
  return figures;
}
