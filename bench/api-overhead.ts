import { GetCommand, PutCommand, QueryCommand } from '#shared/data/table/commands';
import { batchWrite } from '#shared/data/table/batch-write';
import { db, tableName } from '#shared/data/table/client';
import { apiKeyKey } from '#shared/data/api-key';
import { indexes } from '#shared/data/table/table';
import { hashSecret } from '#shared/domain/api-keys';
import { getMessage, messageKey, putNewMessages } from '#shared/data/message';
import { MESSAGE_SHARDS } from '#shared/data/message-shard';
import type { Message } from '#shared/records/message';
import { newId } from '#shared/ids';
import { setRateLimit } from '#shared/domain/workspaces';
import { startInvocationTracing, stopInvocationTracing } from '#local/invocation-trace';
import type { FunctionUsage } from '#local/usage-meter';
import { median, round, type BenchContext, type Figure } from './harness';
import { functionUsageBetween } from './invocations';
import { memoryMbOf } from '#lib/function-memory';
import { operations } from '#shared/service/operations';
import { CONNECTIONS, loadApi, loadRaw, SECONDS, withCpu, type CpuPerRequest, type Latencies } from './steady-load';
import { callFigures, traceRaw } from './operation-calls';

const ROUNDS = 3;
/**
 * Untimed passes over every endpoint, API and raw, before the timed rounds: DynamoDB Local's JIT
 * compiles for about 30 s of such load (a list's p50 measured 78, 50, 45, 36, 32, 31 ms in six
 * 6-second runs on a fresh stack), and the operation timed first would carry the compilation.
 */
const WARMUP_PASSES = 2;
const PAGE_SIZE = 20;
/** The workspace's request limit for this benchmark, per second (the admission is written all the same). */
const API_RATE_LIMIT = 10_000;

/**
 * A second workspace whose list a large campaign has widened: PAGE_SIZE × 4 messages spread over
 * the 8 partitions, written as its fan-out writes them once the widening is old enough.
 */
async function widenedWorkspace(ctx: BenchContext, sample: Record<string, unknown>): Promise<{ id: string; key: string }> {
  const wide = await ctx.workspace({ ranCampaigns: true });
  await setRateLimit(wide.id, API_RATE_LIMIT);
  const { PK, SK, GSI1PK, GSI1SK, GSI2PK, GSI2SK, GSI3PK, GSI3SK, ...message } = sample;
  const messages = Array.from({ length: PAGE_SIZE * 4 }, () => ({ ...message, id: newId(), workspace_id: wide.id }) as unknown as Message);
  await putNewMessages(messages, MESSAGE_SHARDS);
  return wide;
}

/**
 * API overhead: p50/p95/p99 of POST /messages, GET /messages and GET /messages/{id} under steady
 * load, each against the raw DynamoDB Local calls the operation minimally needs, issued from this
 * process at the same concurrency with the service's own table client (shared/data/table/client.ts:
 * the SDK's DynamoDBDocumentClient, with the service's settings), so both pay the same SDK's CPU.
 * Alternating rounds; the medians are reported.
 */
export async function benchApiOverhead(ctx: BenchContext): Promise<Figure[]> {
  const ws = await ctx.workspace();
  // Above what this machine serves: a warm stack answers GET /messages/{id} near the pro plan's 500/s, and a 429 fails the load.
  await setRateLimit(ws.id, API_RATE_LIMIT);
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
  const wide = await widenedWorkspace(ctx, sample);
  const authenticate = () => db().send(new GetCommand({ TableName: tableName(), Key: apiKeyKey(hashSecret(ws.key)), ConsistentRead: true }));
  const base = ctx.stack.stack.base_url;
  // The least a page of messages needs, the baseline of both lists.
  const rawPage = () =>
    db().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: indexes.byParent.indexName,
        KeyConditionExpression: 'GSI1PK = :pk',
        ExpressionAttributeValues: { ':pk': rawListPartition },
        ScanIndexForward: false,
        Limit: PAGE_SIZE,
      }),
    );
  const rawList = {
    rawName: `GetItem (key) + Query (${PAGE_SIZE} messages in one partition)`,
    rawOperation: async () => {
      await authenticate();
      await rawPage();
    },
  };

  const endpoints: {
    name: string;
    /** The operation serving it (shared/service/operations.ts), issue 29's budget on its DynamoDB depth, and issue 54's on its p50 against the raw calls' (both through the SDK). */
    functionName: string;
    depthBudget: number;
    /** Issue 54's p50 budget, on a workspace's list as it starts (one partition); the widened list is shown beside it. */
    ratioBudget?: number;
    api: () => Promise<Latencies>;
    rawOperation: () => Promise<unknown>;
    rawName: string;
  }[] = [
    {
      name: 'POST /api/v1/messages',
      functionName: 'SendMessage',
      depthBudget: 3,
      ratioBudget: 6,
      api: () => loadApi(`${base}/api/v1/messages`, ws.key, 'POST', { to: '+14158880001', template: 'welcome', variables: ['B'] }),
      rawName: 'GetItem (key) + PutItem (message)',
      rawOperation: async () => {
        await authenticate();
        const id = newId();
        await db().send(
          new PutCommand({
            TableName: tableName(),
            Item: { ...sample, PK: `BENCH#${id}`, SK: 'BENCH', GSI3PK: 'BENCH#LIST', GSI3SK: id, GSI2PK: 'BENCH#PHONE', GSI2SK: id, id },
          }),
        );
      },
    },
    {
      name: 'GET /api/v1/messages',
      functionName: 'ListMessages',
      depthBudget: 3,
      ratioBudget: 4,
      api: () => loadApi(`${base}/api/v1/messages?pageSize=${PAGE_SIZE}`, ws.key, 'GET'),
      ...rawList,
    },
    {
      name: 'GET /api/v1/messages, a list widened to 8 partitions',
      functionName: 'ListMessages',
      depthBudget: 3,
      api: () => loadApi(`${base}/api/v1/messages?pageSize=${PAGE_SIZE}`, wide.key, 'GET'),
      // Its least: a page from each of the 8 partitions, read at once, as the widened list merges them.
      rawName: `GetItem (key) + 8 Queries at once (${PAGE_SIZE} messages each)`,
      rawOperation: async () => {
        await authenticate();
        await Promise.all(Array.from({ length: 8 }, () => rawPage()));
      },
    },
    {
      name: 'GET /api/v1/messages/{id}',
      functionName: 'GetMessage',
      depthBudget: 2,
      ratioBudget: 4,
      api: () => loadApi(`${base}/api/v1/messages/${messageId}`, ws.key, 'GET'),
      rawName: 'GetItem (key) + GetItem (message)',
      rawOperation: async () => {
        await authenticate();
        await db().send(new GetCommand({ TableName: tableName(), Key: messageKey(ws.id, messageId) }));
      },
    },
  ];

  const figures: Figure[] = [];
  const served: { endpoint: (typeof endpoints)[number]; p50: number; rawP50: number }[] = [];
  const sumOf = (cpu: CpuPerRequest) => Object.values(cpu).reduce((sum, ms) => sum + ms, 0);
  const detailOf = (cpu: CpuPerRequest) =>
    Object.entries(cpu)
      .map(([name, ms]) => `${name} ${round(ms)}`)
      .join(', ');
  const did = new Map<string, FunctionUsage>();
  try {
    for (let pass = 0; pass < WARMUP_PASSES; pass++) {
      for (const endpoint of endpoints) {
        await loadRaw(endpoint.rawOperation);
        await endpoint.api();
      }
    }
    for (const endpoint of endpoints) {
      const api: Latencies[] = [];
      const raw: Latencies[] = [];
      const apiCpu: CpuPerRequest[] = [];
      const rawCpu: CpuPerRequest[] = [];
      await ctx.settledUsage();
      for (let round = 0; round < ROUNDS; round++) {
        const rawRound = await withCpu(ctx, () => loadRaw(endpoint.rawOperation));
        const apiRound = await withCpu(ctx, endpoint.api);
        raw.push(rawRound.latencies);
        rawCpu.push(rawRound.cpu);
        api.push(apiRound.latencies);
        apiCpu.push(apiRound.cpu);
      }
      // The round whose total is the median, so its parts add up.
      const medianCpu = (rounds: CpuPerRequest[]) => [...rounds].sort((a, b) => sumOf(a) - sumOf(b))[Math.floor(rounds.length / 2)];
      const of = (runs: Latencies[], p: keyof Latencies) => median(runs.map((run) => run[p]));
      served.push({ endpoint, p50: of(api, 'p50'), rawP50: of(raw, 'p50') });
      const rawName = `${endpoint.rawName}, ${CONNECTIONS} concurrent`;
      figures.push(
        {
          name: `${endpoint.name} p50 (${CONNECTIONS} connections, median of ${ROUNDS} × ${SECONDS} s)`,
          value: of(api, 'p50'),
          unit: 'ms',
          baseline: { name: `${rawName} p50`, value: of(raw, 'p50') },
          ...(endpoint.ratioBudget && { budget: { max: endpoint.ratioBudget, of: 'ratio' as const } }),
        },
        { name: `${endpoint.name} p95`, value: of(api, 'p95'), unit: 'ms', baseline: { name: `${rawName} p95`, value: of(raw, 'p95') } },
        { name: `${endpoint.name} p99`, value: of(api, 'p99'), unit: 'ms', baseline: { name: `${rawName} p99`, value: of(raw, 'p99') } },
        { name: `${endpoint.name} requests per round`, value: of(api, 'requests'), unit: 'requests', baseline: { name: rawName, value: of(raw, 'requests') } },
        {
          // With 4 connections on 2 cores, the p50 follows the CPU each request costs all processes together (the sends it starts included).
          name: `${endpoint.name} CPU time per request, every process, until the stack is idle (median round: ${detailOf(medianCpu(apiCpu))})`,
          value: sumOf(medianCpu(apiCpu)),
          unit: 'ms',
          baseline: { name: `${rawName} (${detailOf(medianCpu(rawCpu))})`, value: sumOf(medianCpu(rawCpu)) },
        },
      );
    }
    // The calls, depth and CPU time of each operation under the same load, counted apart: the tracing's hooks would slow the timed rounds.
    await ctx.traceInvocations(true);
    for (const endpoint of endpoints) {
      const before = await ctx.settledUsage();
      await endpoint.api();
      did.set(endpoint.name, functionUsageBetween(before, await ctx.settledUsage(), endpoint.functionName));
    }
  } finally {
    await ctx.traceInvocations(false);
    await ctx.simulatorFaults({ no_webhooks: false });
  }
  // The baselines' calls and CPU time, traced as the stack traces its handlers.
  startInvocationTracing();
  try {
    for (const { endpoint, p50, rawP50 } of served) {
      figures.push(
        ...callFigures(
          endpoint.name,
          did.get(endpoint.name)!,
          endpoint.depthBudget,
          memoryMbOf(operations.find((op) => op.name === endpoint.functionName)!),
          p50,
          {
            name: endpoint.rawName,
            usage: await traceRaw(endpoint.rawOperation),
            p50: rawP50,
          },
        ),
      );
    }
  } finally {
    stopInvocationTracing();
  }
  return figures;
}
