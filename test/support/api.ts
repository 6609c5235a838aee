import { mkdtempSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { callApi, type CallOptions, type Reply } from '#local/api-client';
import { startApiServer } from '#local/api-server';
import { startRuntime, type LocalRuntime } from '#local/runtime';
import { startSqsEmulator, type SqsEmulator } from '#local/sqs-emulator';
import type { AddressInfo } from 'node:net';
import { startSimulator, type Simulator } from '#simulator/server';
import { createKey, hashSecret } from '#shared/domain/api-keys';
import { newOperatorKey } from '#local/operator-key';
import { createWorkspace } from '#shared/domain/workspaces';
import type { Plan } from '#shared/records/workspace';
import { randomDigits } from '#local/random';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { startStreamPoller } from '#local/stream-poller';
import { passesStreamFilters, STREAMED_SORT_KEYS } from '#shared/data/table/stream-filters';
import { indexContactsOf } from '#shared/data/contact-search';
import { countMessages } from '#shared/domain/outbox/counts';
import { useIsolatedTable } from './table';
import { checkReply } from './openapi-check';
import { unexpectedErrorOf } from './unexpected-errors';
import { startFaultProxy, type FaultProxy } from '#local/fault-proxy';

export const TEST_PLATFORM = { app_secret: 'test-app-secret', verify_token: 'test-verify-token', access_token: 'test-access-token', app_id: '100000000000002' };

export interface TestWorkspace {
  id: string;
  key: string;
  phoneNumberId: string;
  wabaId: string;
}

export interface TestApi {
  baseUrl: string;
  simulator: Simulator;
  workspace(plan?: Plan): Promise<TestWorkspace>;
  /** A workspace whose templates are synced from the simulator, ready to send. */
  workspaceWithTemplates(plan?: Plan): Promise<TestWorkspace>;
  call(method: string, path: string, options?: CallOptions): Promise<Reply>;
  /** The operator key /admin/v1 takes in this suite (contract §19), as `npm start` makes one. */
  operatorKey: string;
  /** With `dependencyFaults`: the fault proxies the service's own DynamoDB and SQS calls go through. */
  dependencies: { dynamodb: FaultProxy; sqs: FaultProxy };
}

/**
 * The API as a client sees it, in-process: the local router and the real handlers over HTTP,
 * against this suite's own table in DynamoDB Local, with the Graph API simulator behind it.
 */
export interface TestApiOptions {
  /** Also run the asynchronous side (SQS emulator, queue and stream pollers): sends, webhooks, workers. */
  runtime?: boolean;
  /** Milliseconds between the simulator's status webhooks. */
  statusIntervalMs?: number;
  /**
   * Without the runtime, still count messages from the table stream (the counting half of
   * PublishEvents, nothing sent or published): messages stay `queued`, and list totals follow them.
   */
  counting?: boolean;
  /**
   * Without the runtime, still index contacts for search from the table stream (the search half
   * of TableOutbox's follow-ups, nothing sent): a contact is found by `search` shortly after its write.
   */
  searchIndexing?: boolean;
  /** Print the business metrics' EMF lines on stdout, as in Lambda (off by default: noise in test output). */
  metrics?: boolean;
  /**
   * Put fault proxies (local/fault-proxy.ts) between the service's code and DynamoDB Local and
   * the SQS emulator; the pollers, Lambda's stand-ins, keep talking to them directly. Needs `runtime`.
   */
  dependencyFaults?: boolean;
}

/** One half of a stream function's work, run on the table's stream without the rest of the runtime; a batch it gives up on fails the suite. */
const streamHalf = (
  functionName: string,
  what: string,
  handle: (records: DynamoDBStreamEvent['Records']) => Promise<void>,
  filter: Parameters<typeof startStreamPoller>[0]['filter'],
) =>
  startStreamPoller({
    endpoint: process.env.DYNAMODB_ENDPOINT!,
    tableName: process.env.TABLE_NAME!,
    functionName,
    handler: (event) => handle((event as DynamoDBStreamEvent).Records),
    batchSize: 100,
    filter,
    onFailure: async (failure) => {
      throw new Error(`${what} gave up on a stream batch: ${JSON.stringify(failure)}`);
    },
  });

export function useTestApi(options: TestApiOptions = {}): TestApi {
  useIsolatedTable();
  let server: Server;
  let emulator: SqsEmulator | undefined;
  let runtime: LocalRuntime | undefined;
  let counting: { stop(): Promise<void> } | undefined;
  let searchIndexing: { stop(): Promise<void> } | undefined;
  let proxies: FaultProxy[] = [];
  const api = { operatorKey: newOperatorKey() } as TestApi;

  beforeAll(async () => {
    api.simulator = await startSimulator({
      port: 0,
      accessTokens: [TEST_PLATFORM.access_token],
      appSecret: TEST_PLATFORM.app_secret,
      statusIntervalMs: options.statusIntervalMs ?? 50,
      webhookRetryDelaysMs: [50, 200],
    });
    Object.assign(process.env, {
      GRAPH_API_BASE_URL: api.simulator.url,
      PLATFORM_SECRETS: JSON.stringify(TEST_PLATFORM),
      // Workspaces' own tokens (onboarding), as the local stack keeps them: files, one directory per suite.
      LOCAL_WORKSPACE_SECRETS_DIR: mkdtempSync(join(tmpdir(), 'workspace-secrets-')),
      // Silent unless asked: TEST_LOG_LEVEL=ERROR shows what is behind an unexpected 500.
      POWERTOOLS_LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'SILENT',
      POWERTOOLS_METRICS_DISABLED: options.metrics ? 'false' : 'true',
      SEND_RATE_PER_SECOND: '80',
      ALLOW_INSECURE_WEBHOOKS: 'true',
      OPERATOR_KEY_SHA256: hashSecret(api.operatorKey),
      // As the local stack: none unless the suite set its own before.
      CLOSED_MARKETS: process.env.CLOSED_MARKETS ?? '[]',
    });
    if (options.runtime) {
      emulator = await startSqsEmulator('any');
      process.env.SQS_ENDPOINT = emulator.endpoint;
      runtime = await startRuntime({ sqsEndpoint: emulator.endpoint, dynamodbEndpoint: process.env.DYNAMODB_ENDPOINT!, tableName: process.env.TABLE_NAME! });
      if (options.dependencyFaults) {
        const [dynamodb, sqs] = await Promise.all([
          startFaultProxy({ target: process.env.DYNAMODB_ENDPOINT!, kind: 'dynamodb' }),
          startFaultProxy({ target: emulator.endpoint, kind: 'sqs' }),
        ]);
        proxies = [dynamodb, sqs];
        api.dependencies = { dynamodb, sqs };
        Object.assign(process.env, { DYNAMODB_ENDPOINT: dynamodb.url, SQS_ENDPOINT: sqs.url });
      }
    }
    if (options.counting)
      // As PublishEvents's event source filters the stream (shared/data/table/stream-filters.ts).
      counting = await streamHalf('PublishEvents', 'Counting', countMessages, (record) => passesStreamFilters('changes', record));
    if (options.searchIndexing)
      // As TableOutbox's event source filters the stream, its contacts only.
      searchIndexing = await streamHalf(
        'TableOutbox',
        'Search indexing',
        indexContactsOf,
        (record) => passesStreamFilters('followUps', record) && record.dynamodb?.Keys?.SK?.S === STREAMED_SORT_KEYS.contact,
      );
    server = await startApiServer(0, () => true);
    api.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    api.simulator.setWebhookUrl(`${api.baseUrl}/webhooks/whatsapp`);
  });

  afterAll(async () => {
    await api.simulator?.stop();
    await runtime?.stop();
    await counting?.stop();
    await searchIndexing?.stop();
    await Promise.all(proxies.map((proxy) => proxy.stop()));
    await emulator?.stop();
    // Idle keep-alive connections would hold close() open until they time out.
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });

  api.workspace = async (plan = 'pro') => {
    const workspace = await createWorkspace({ name: 'Test', plan, phone_number_id: randomDigits(15), waba_id: randomDigits(15) });
    const key = await createKey(workspace.id, { name: 'Test key' });
    api.simulator.registerNumber(workspace.phone_number_id, workspace.waba_id);
    return { id: workspace.id, key: key.api_key, phoneNumberId: workspace.phone_number_id, wabaId: workspace.waba_id };
  };

  api.workspaceWithTemplates = async (plan = 'pro') => {
    const ws = await api.workspace(plan);
    await api.call('POST', '/api/v1/templates/sync', { key: ws.key });
    return ws;
  };

  // Every answer a test receives is checked against the API document (test/support/openapi-check.ts).
  api.call = async (method, path, options) => {
    const reply = await callApi(api.baseUrl, method, path, options);
    if (reply.status === 500) console.error(`${method} ${path} answered 500, behind it:`, unexpectedErrorOf(reply.body?.request_id));
    checkReply(method, path, reply);
    return reply;
  };

  return api;
}
