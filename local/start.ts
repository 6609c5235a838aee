/**
 * `npm start`: the whole service on this machine, no AWS account and no Docker. DynamoDB Local,
 * the SQS emulator, the Graph API simulator, the schedules and the API built from shared/service/operations.ts.
 */
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { ensureTable, startDynamoDbLocal } from '#local/dynamodb';
import { startApiServer } from '#local/api-server';
import { freePort } from '#local/ports';
import { startRuntime } from '#local/runtime';
import { startSchedules } from '#local/schedules';
import { startSqsEmulator } from '#local/sqs-emulator';
import { ensureDemoWorkspace } from '#local/demo-workspace';
import { localDir, writeJson, type StackInfo } from '#local/stack-file';
import { startSimulator } from '#simulator/server';
import { startUsageMeter } from '#local/usage-meter';
import { startFaultProxy } from '#local/fault-proxy';
import { db } from '#shared/data/table/client';
import { listWorkspaces } from '#shared/domain/workspaces';
import { DEFAULT_GRAPH_API_VERSION } from '#shared/platform/graph-version';
import { hashSecret } from '#shared/domain/api-keys';
import { newOperatorKey } from '#local/operator-key';
import { localChecksOn } from '#local/iam/model-file';
import { startLocalChecks } from '#local/iam/enforcement';

const TABLE_NAME = 'messaging-local';
/** Local-only platform credentials: the simulator accepts this token and signs webhooks with this secret. */
const LOCAL_PLATFORM = { app_secret: 'local-app-secret', verify_token: 'local-verify-token', access_token: 'local-access-token', app_id: '100000000000001' };
/** Templates created through the API are approved this long after they are submitted, as a platform review would (`POST /_simulate/template-review` changes it). */
const LOCAL_TEMPLATE_REVIEW = { delayMs: 10_000, outcome: 'APPROVED' } as const;

/** A port from the environment; `0` asks for any free one (used by tests), which a server of ours takes as it binds. */
const port = (name: string, fallback: number): number => Number(process.env[name] ?? fallback);

let ready = false;
const stops: (() => Promise<unknown> | unknown)[] = [];

async function shutdown(exitCode: number) {
  ready = false;
  for (const stop of stops.reverse()) await Promise.resolve(stop()).catch(() => undefined);
  process.exit(exitCode);
}

async function main() {
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));

  // Each function's calls checked against its role in the synthesized template (local/iam/enforcement.ts):
  // the template is synthesized once for these sources (seconds), then read from .local/iam.
  if (localChecksOn()) {
    process.env.LOCAL_IAM_RUN ??= 'start';
    await startLocalChecks();
  }

  // Throwaway stacks (tests, benchmarks) keep the table in memory: persisted, DynamoDB Local writes
  // every item to disk and serves a campaign about three times slower.
  const dataDir = process.env.DYNAMODB_IN_MEMORY === 'on' ? undefined : join(localDir(), 'dynamodb');
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  // DynamoDB Local (Java) needs its port named; the servers of this process bind port 0 themselves.
  const dynamoPort = port('DYNAMODB_PORT', 8000) || (await freePort());
  // `0`: the emulator finds its own, and another if a parallel suite takes it first (local/sqs-emulator.ts).
  const sqsPort = Number(process.env.SQS_PORT ?? 4566);

  // A test's throwaway stack runs a few minutes: its JVM compiles quickly rather than well (local/dynamodb.ts).
  const dynamo = await startDynamoDbLocal(dynamoPort, dataDir, { quickJvm: process.env.DYNAMODB_QUICK_JVM === 'on' });
  stops.push(dynamo.stop);
  await ensureTable(dynamo.endpoint, TABLE_NAME);

  const queues = await startSqsEmulator(sqsPort === 0 ? 'any' : sqsPort);
  stops.push(queues.stop);

  // Workspaces' own tokens from Embedded Signup (contract §19): files here, never in the table; the
  // simulator of an earlier start issued them, so this one accepts them too.
  const workspaceSecretsDir = join(localDir(), 'workspace-secrets');
  const simulator = await startSimulator({
    port: port('SIMULATOR_PORT', 3001),
    accessTokens: [LOCAL_PLATFORM.access_token, ...workspaceTokensIn(workspaceSecretsDir)],
    appSecret: LOCAL_PLATFORM.app_secret,
    templateReview: LOCAL_TEMPLATE_REVIEW,
  });
  stops.push(simulator.stop);

  Object.assign(process.env, {
    TABLE_NAME,
    DYNAMODB_ENDPOINT: dynamo.endpoint,
    SQS_ENDPOINT: queues.endpoint,
    GRAPH_API_BASE_URL: simulator.url,
    GRAPH_API_VERSION: DEFAULT_GRAPH_API_VERSION,
    PLATFORM_SECRETS: JSON.stringify(LOCAL_PLATFORM),
    LOCAL_WORKSPACE_SECRETS_DIR: workspaceSecretsDir,
    POWERTOOLS_LOG_LEVEL: process.env.POWERTOOLS_LOG_LEVEL ?? 'WARN',
    SEND_RATE_PER_SECOND: process.env.SEND_RATE_PER_SECOND ?? '80',
    // Local mode: webhook subscriptions may use http:// and loopback addresses.
    ALLOW_INSECURE_WEBHOOKS: 'true',
    // The simulator delivers marketing everywhere: no market is closed unless a test says so.
    CLOSED_MARKETS: process.env.CLOSED_MARKETS ?? '[]',
  });

  // The operator's key (contract §19): new at each start, only its hash in the functions' environment.
  const operatorKey = newOperatorKey();
  process.env.OPERATOR_KEY_SHA256 = hashSecret(operatorKey);

  const runtime = await startRuntime({
    sqsEndpoint: queues.endpoint,
    dynamodbEndpoint: dynamo.endpoint,
    tableName: TABLE_NAME,
    schedulesFile: join(localDir(), 'schedules.json'),
  });
  stops.push(runtime.stop);

  // DEPENDENCY_FAULTS=on: the functions reach DynamoDB Local and the SQS emulator through fault
  // proxies (no faults until asked); the pollers, Lambda's own stand-ins, keep the direct line.
  let faultProxies: StackInfo['fault_proxies'];
  if (process.env.DEPENDENCY_FAULTS === 'on') {
    const [dynamodbProxy, sqsProxy] = await Promise.all([
      startFaultProxy({ target: dynamo.endpoint, kind: 'dynamodb' }),
      startFaultProxy({ target: queues.endpoint, kind: 'sqs' }),
    ]);
    stops.push(dynamodbProxy.stop, sqsProxy.stop);
    Object.assign(process.env, { DYNAMODB_ENDPOINT: dynamodbProxy.url, SQS_ENDPOINT: sqsProxy.url });
    faultProxies = { dynamodb: dynamodbProxy.url, sqs: sqsProxy.url };
  }

  const meter = startUsageMeter(db());
  if (meter) stops.push(meter.stop);

  const api = await startApiServer(port('PORT', 3000), () => ready);
  const apiPort = (api.address() as AddressInfo).port;
  stops.push(() => {
    // Clients keep idle connections as long as the server's keep-alive (60 s): close() would wait for them.
    api.closeAllConnections();
    return new Promise((resolve) => api.close(resolve));
  });
  const baseUrl = `http://localhost:${apiPort}`;
  simulator.setWebhookUrl(`http://127.0.0.1:${apiPort}/webhooks/whatsapp`);

  const stack: StackInfo = {
    pid: process.pid,
    base_url: baseUrl,
    simulator_url: simulator.url,
    dynamodb_endpoint: dynamo.endpoint,
    table_name: TABLE_NAME,
    graph_api_version: DEFAULT_GRAPH_API_VERSION,
    platform_secrets: LOCAL_PLATFORM,
    fault_proxies: faultProxies,
  };
  writeJson('stack.json', stack);
  const credentials = await ensureDemoWorkspace(baseUrl, simulator.url, operatorKey);
  // Every workspace's number, so the simulator's webhooks name its business account as the platform does.
  for (const workspace of await listWorkspaces()) {
    if (workspace.phone_number_id && workspace.waba_id) simulator.registerNumber(workspace.phone_number_id, workspace.waba_id);
    if (workspace.onboarding) simulator.registerNumber(workspace.onboarding.phone_number_id, workspace.onboarding.waba_id);
  }

  const schedules = await startSchedules();
  stops.push(schedules.stop);

  ready = true;
  console.log(`
Messaging API is ready.
  API        ${baseUrl}
  Simulator  ${simulator.url}
  Workspace  ${credentials.workspace_id} (plan pro, phone_number_id ${credentials.phone_number_id})
  API key    ${credentials.api_key}
  Operator   ${operatorKey} (for /admin/v1 and \`npm run admin\`; a new one each start)
Credentials written to ${join(localDir(), 'credentials.json')}. Ctrl-C stops everything.
${localChecksOn() ? 'Each function is held to its role and environment in the synthesized template (LOCAL_IAM=off turns it off); `npm run iam-report` lists what they called.\n' : ''}${faultProxies ? `Dependency faults: POST ${faultProxies.dynamodb}/_faults (DynamoDB), POST ${faultProxies.sqs}/_faults (SQS)\n` : ''}`);
}

/** The tokens kept in the local workspace secrets (none before the first onboarding). */
function workspaceTokensIn(dir: string): string[] {
  let files: string[];
  try {
    files = readdirSync(dir).filter((file) => file.endsWith('.json'));
  } catch {
    return [];
  }
  return files.map((file) => (JSON.parse(readFileSync(join(dir, file), 'utf8')) as { access_token: string }).access_token);
}

main().catch((error) => {
  console.error('The local stack failed to start:', error);
  return shutdown(1);
});
