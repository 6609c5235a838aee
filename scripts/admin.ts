/**
 * Operator command: workspaces and first keys, outside the public API.
 *   npm run --silent admin -- workspace create --name Acme --plan growth --json
 *   npm run --silent admin -- workspace list | workspace set-plan --id ID --plan pro | key create --workspace ID
 *   npm run --silent admin -- workspace set-stop-words --id ID --words "STOP,UNSUBSCRIBE,BAJA"
 *   npm run --silent admin -- workspace set-rate-limit --id ID --rps 200
 *   npm run --silent admin -- workspace set-rate-card --id ID --file card.json | workspace show-rate-card --id ID
 *   npm run --silent admin -- number set-throughput --phone-number-id ID --mps 1000
 * Against the running local stack by default (it reads .local/stack.json); against a deployed
 * stack with --table NAME [--region R] [--platform-secret-arn ARN], using your AWS credentials.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createKey } from '#shared/domain/api-keys';
import { syncTemplates } from '#shared/domain/templates/catalog';
import { createWorkspace, listWorkspaces, setPlan, setRateLimit, setStopWords } from '#shared/domain/workspaces';
import { PLANS, type Plan } from '#shared/records/workspace';
import { DEFAULT_STOP_WORDS } from '#shared/domain/messages/opt-out';
import { MAX_THROUGHPUT, setNumberThroughput } from '#shared/domain/messages/send-rate';
import { DEFAULT_RATE_CARD } from '#shared/domain/pricing/default-rate-card';
import { ownRateCard, setRateCard } from '#shared/domain/pricing/rate-cards';
import type { DomainError } from '#shared/errors';
import { randomDigits } from '#local/random';
import { readJson, type StackInfo } from '#local/stack-file';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    name: { type: 'string' },
    plan: { type: 'string' },
    id: { type: 'string' },
    workspace: { type: 'string' },
    words: { type: 'string' },
    rps: { type: 'string' },
    mps: { type: 'string' },
    file: { type: 'string' },
    description: { type: 'string' },
    'phone-number-id': { type: 'string' },
    'waba-id': { type: 'string' },
    table: { type: 'string' },
    region: { type: 'string' },
    'platform-secret-arn': { type: 'string' },
    json: { type: 'boolean', default: false },
  },
});

function fail(message: string): never {
  console.error(`admin: ${message}`);
  process.exit(2);
}

const required = (name: keyof typeof values): string => (values[name] as string | undefined) ?? fail(`--${name} is required`);

function plan(): Plan {
  const value = required('plan');
  return (PLANS as readonly string[]).includes(value) ? (value as Plan) : fail(`--plan must be one of ${PLANS.join(', ')}`);
}

/** Points the shared data code at the local stack or at the deployed table. Returns whether this is the local stack. */
function connect(): boolean {
  if (values.table) {
    process.env.TABLE_NAME = values.table;
    if (values.region) process.env.AWS_REGION = values.region;
    if (values['platform-secret-arn']) process.env.PLATFORM_SECRET_ARN = values['platform-secret-arn'];
    return false;
  }
  const stack = readJson<StackInfo>('stack.json') ?? fail('no local stack found: start it with `npm start`, or pass --table for a deployed stack');
  Object.assign(process.env, {
    TABLE_NAME: stack.table_name,
    DYNAMODB_ENDPOINT: stack.dynamodb_endpoint,
    GRAPH_API_BASE_URL: stack.simulator_url,
    GRAPH_API_VERSION: stack.graph_api_version,
    PLATFORM_SECRETS: JSON.stringify(stack.platform_secrets),
  });
  return true;
}

async function registerWithSimulator(phoneNumberId: string, wabaId: string): Promise<void> {
  const url = `${process.env.GRAPH_API_BASE_URL}/_simulate/numbers`;
  await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ phone_number_id: phoneNumberId, waba_id: wabaId }),
  });
}

function print(value: unknown, text: string) {
  console.log(values.json ? JSON.stringify(value) : text);
}

async function main() {
  const command = positionals.join(' ');
  const local = connect();
  switch (command) {
    case 'workspace create': {
      const workspace = await createWorkspace({
        name: required('name'),
        plan: plan(),
        phone_number_id: values['phone-number-id'] ?? (local ? randomDigits(15) : fail('--phone-number-id is required for a deployed stack')),
        waba_id: values['waba-id'] ?? (local ? randomDigits(15) : fail('--waba-id is required for a deployed stack')),
      });
      const key = await createKey(workspace.id, { name: 'Initial key', description: 'Created by the admin command' });
      // Locally, the simulator learns the number's business account, as the platform knows it.
      if (local) await registerWithSimulator(workspace.phone_number_id, workspace.waba_id);
      // Templates sync on a schedule; sync now when the platform is reachable so the workspace is usable at once.
      if (local || values['platform-secret-arn']) await syncTemplates(workspace);
      const result = { workspace_id: workspace.id, api_key: key.api_key, phone_number_id: workspace.phone_number_id };
      return print(result, `Workspace ${workspace.id} (${workspace.plan})\nAPI key ${key.api_key}\nphone_number_id ${workspace.phone_number_id}`);
    }
    case 'workspace list': {
      const workspaces = await listWorkspaces();
      return print(workspaces, workspaces.map((w) => `${w.id}  ${w.plan.padEnd(7)}  ${w.phone_number_id}  ${w.name}`).join('\n'));
    }
    case 'workspace set-plan': {
      const workspace = await setPlan(required('id'), plan()).catch(() => fail('no such workspace'));
      return print(workspace, `Workspace ${workspace.id} is now on plan ${workspace.plan}`);
    }
    case 'workspace set-stop-words': {
      const words = required('words').split(',');
      const workspace = await setStopWords(required('id'), words).catch(() => fail('no such workspace'));
      const list = workspace.stop_words ?? DEFAULT_STOP_WORDS;
      return print({ workspace_id: workspace.id, stop_words: list }, `Workspace ${workspace.id} stop words: ${list.join(', ')}`);
    }
    case 'workspace set-rate-limit': {
      const rps = Number(required('rps'));
      if (!Number.isInteger(rps) || rps < 1 || rps > 100_000) fail('--rps must be a whole number of requests per second, 1 to 100000');
      const workspace = await setRateLimit(required('id'), rps).catch(() => fail('no such workspace'));
      return print(
        { workspace_id: workspace.id, rate_limit: workspace.rate_limit },
        `Workspace ${workspace.id} may make ${workspace.rate_limit} requests per second`,
      );
    }
    case 'workspace set-rate-card': {
      const path = required('file');
      let card: unknown;
      try {
        card = JSON.parse(readFileSync(path, 'utf8'));
      } catch (error) {
        fail(`--file ${path}: ${(error as Error).message}`);
      }
      const set = await setRateCard(required('id'), card).catch((error: DomainError) =>
        fail(error.details?.length ? `${error.details[0].field}: ${error.details[0].message}` : 'no such workspace'),
      );
      return print(
        { workspace_id: values.id, rate_card: set },
        `Workspace ${values.id} prices in ${set.currency} by its own card (${Object.keys(set.markets).length} markets)`,
      );
    }
    case 'workspace show-rate-card': {
      const own = await ownRateCard(required('id'));
      return print({ workspace_id: values.id, own: Boolean(own), rate_card: own ?? DEFAULT_RATE_CARD }, JSON.stringify(own ?? DEFAULT_RATE_CARD, null, 2));
    }
    case 'number set-throughput': {
      const mps = Number(required('mps'));
      if (!Number.isInteger(mps) || mps < 1 || mps > MAX_THROUGHPUT)
        fail(`--mps must be the number's throughput in messages per second, 1 to ${MAX_THROUGHPUT}`);
      const phoneNumberId = required('phone-number-id');
      await setNumberThroughput(phoneNumberId, mps);
      return print({ phone_number_id: phoneNumberId, throughput: mps }, `Number ${phoneNumberId} sends up to ${mps} messages per second`);
    }
    case 'key create': {
      const key = await createKey(required('workspace'), { name: values.name ?? 'Admin key', description: values.description }).catch(() =>
        fail('no such workspace'),
      );
      return print(key, `API key ${key.api_key}`);
    }
    default:
      fail(
        'usage: admin workspace create|list|set-plan|set-stop-words|set-rate-limit|set-rate-card|show-rate-card, admin number set-throughput, or admin key create (see README)',
      );
  }
}

main().catch((error) => fail((error as Error).message));
