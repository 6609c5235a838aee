/**
 * Operator command: a client of the operator's API, /admin/v1 (contract §19, docs/operator.md).
 *   npm run --silent admin -- workspace create --name Acme --plan growth [--phone-number-id P --waba-id W | --no-number] --json
 *   npm run --silent admin -- workspace list | workspace get --id ID | workspace set-plan --id ID --plan pro
 *   npm run --silent admin -- workspace set-stop-words --id ID --words "STOP,UNSUBSCRIBE,BAJA"
 *   npm run --silent admin -- workspace set-rate-limit --id ID --rps 200
 *   npm run --silent admin -- workspace suspend --id ID | workspace unsuspend --id ID
 *   npm run --silent admin -- workspace onboard --id ID --code C --phone-number-id P --waba-id W [--pin 123456] [--mode coexistence]
 *     (locally without --code: a business signs up through the simulator's Embedded Signup first)
 *   npm run --silent admin -- workspace delete --id ID [--wait]
 *   npm run --silent admin -- key create --workspace ID [--name N] [--description D]
 *   npm run --silent admin -- number list --workspace ID | number connect --workspace ID --phone-number-id P --waba-id W
 *   npm run --silent admin -- number set-throughput --phone-number-id ID --mps 1000
 *   npm run --silent admin -- rate-card get --workspace ID | rate-card set --workspace ID --file card.json
 * Against the running local stack by default (with the operator key in .local/credentials.json);
 * against a deployed stack with --api-url URL [--region R], signed with your AWS credentials.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { PLANS, type Plan } from '#shared/records/workspace';
import { MAX_THROUGHPUT } from '#shared/records/business-number';
import { randomDigits } from '#local/random';
import { deployedAdmin, localAdmin, type AdminCall } from './admin-client';

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
    description: { type: 'string' },
    file: { type: 'string' },
    'phone-number-id': { type: 'string' },
    'waba-id': { type: 'string' },
    code: { type: 'string' },
    'no-number': { type: 'boolean', default: false },
    pin: { type: 'string' },
    mode: { type: 'string' },
    'api-url': { type: 'string' },
    region: { type: 'string' },
    table: { type: 'string' },
    json: { type: 'boolean', default: false },
    wait: { type: 'boolean', default: false },
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

function wholeNumber(name: 'rps' | 'mps', max: number, meaning: string): number {
  const value = Number(required(name));
  return Number.isInteger(value) && value >= 1 && value <= max ? value : fail(`--${name} must be ${meaning}, 1 to ${max}`);
}

function print(value: unknown, text: string) {
  console.log(values.json ? JSON.stringify(value) : text);
}

interface Connection {
  call: AdminCall;
  /** Locally: the simulator, which must know a made-up number before the service reads it. */
  simulatorUrl?: string;
}

function connect(): Connection {
  if (values.table) fail('the admin command calls the operator API now: pass --api-url (the stack output ApiUrl) instead of --table');
  if (values['api-url']) return { call: deployedAdmin(values['api-url'], values.region) };
  try {
    const { call, credentials } = localAdmin();
    return { call, simulatorUrl: credentials.simulator_url };
  } catch (error) {
    return fail((error as Error).message);
  }
}

/** The API's answer's `data`, or the command fails with its error. */
async function data<T>(reply: Promise<{ status: number; body: { data?: unknown; error?: { code: string; message: string } } }>): Promise<T> {
  const { status, body } = await reply;
  if (status >= 400 || !body.data) fail(`${body.error?.message ?? 'failed'} (${status} ${body.error?.code ?? ''})`.trim());
  return body.data as T;
}

interface WorkspaceView {
  id: string;
  name: string;
  plan: Plan;
  rate_limit: number;
  stop_words: string[];
  suspended: boolean;
  status: 'active' | 'deleting';
  erasure: { step: string; items_deleted: number; media_deleted: number } | null;
  numbers: { id: string }[];
}

/** A number for a local workspace: made up, and registered with the simulator as the platform would know it. */
async function localNumber(simulatorUrl: string) {
  const number = { phone_number_id: randomDigits(15), waba_id: randomDigits(15) };
  await fetch(`${simulatorUrl}/_simulate/numbers`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(number) });
  return number;
}

/** Locally: a business completes the simulator's Embedded Signup, whose page hands over these. */
async function localSignup(simulatorUrl: string): Promise<{ code: string; phone_number_id: string; waba_id: string; pin?: string }> {
  const reply = await fetch(`${simulatorUrl}/_simulate/embedded-signup`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
  return (await reply.json()) as { code: string; phone_number_id: string; waba_id: string; pin: string };
}

const workspacePath = (id: string) => `/admin/v1/workspaces/${encodeURIComponent(id)}`;

async function setWorkspace(call: AdminCall, changes: Record<string, unknown>): Promise<WorkspaceView> {
  return data<WorkspaceView>(call('PATCH', workspacePath(required('id')), changes));
}

const describe = (w: WorkspaceView) =>
  `${w.id}  ${w.plan.padEnd(7)}  ${w.numbers[0]?.id ?? '-'}  ${w.status === 'deleting' ? '(deleting)  ' : w.suspended ? '(suspended)  ' : ''}${w.name}`;

/** Follows an erasure until the workspace is gone (404), printing its progress as it moves. */
async function waitErased(call: AdminCall, id: string): Promise<void> {
  let last = '';
  for (;;) {
    const reply = await call('GET', workspacePath(id));
    if (reply.status === 404) return;
    const { erasure } = await data<WorkspaceView>(Promise.resolve(reply));
    const progress = erasure ? `${erasure.step}: ${erasure.items_deleted} items, ${erasure.media_deleted} media objects deleted` : '';
    if (progress !== last && !values.json) console.error(progress);
    last = progress;
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
}

interface RateCardView {
  source: 'workspace' | 'default';
  currency: string;
  default: Record<string, string>;
  markets: Record<string, Record<string, string>>;
}

const describeCard = (card: RateCardView) =>
  `${card.source === 'workspace' ? "The workspace's own card" : 'The default card (the workspace has none of its own)'}: ${card.currency}, ${Object.keys(card.markets).length} markets\n${JSON.stringify({ currency: card.currency, default: card.default, markets: card.markets }, null, 2)}`;

/** The card to set, as JSON in --file (`-` reads standard input); the API validates it. */
function cardFile(): unknown {
  const file = required('file');
  try {
    return JSON.parse(readFileSync(file === '-' ? 0 : file, 'utf8'));
  } catch (error) {
    return fail(`--file must name a JSON rate card: ${(error as Error).message}`);
  }
}

async function main() {
  const command = positionals.join(' ');
  const { call, simulatorUrl } = connect();
  switch (command) {
    case 'workspace create': {
      const given = values['phone-number-id'] && { phone_number_id: values['phone-number-id'], waba_id: required('waba-id') };
      // Without a number: locally one made up (unless --no-number); deployed, none (onboarding gives it its first).
      const number = given || (simulatorUrl && !values['no-number'] ? await localNumber(simulatorUrl) : undefined);
      const opened = await data<{ workspace: WorkspaceView; key: { api_key: string } }>(
        call('POST', '/admin/v1/workspaces', { name: required('name'), plan: plan(), ...number }),
      );
      const result = { workspace_id: opened.workspace.id, api_key: opened.key.api_key, phone_number_id: number?.phone_number_id ?? null };
      return print(
        result,
        `Workspace ${result.workspace_id} (${opened.workspace.plan})\nAPI key ${result.api_key}\nphone_number_id ${result.phone_number_id ?? '(none yet: onboard it)'}`,
      );
    }
    case 'workspace list': {
      const workspaces = await data<WorkspaceView[]>(call('GET', '/admin/v1/workspaces'));
      return print(workspaces, workspaces.map(describe).join('\n'));
    }
    case 'workspace get': {
      const workspace = await data<WorkspaceView>(call('GET', workspacePath(required('id'))));
      return print(workspace, JSON.stringify(workspace, null, 2));
    }
    case 'workspace set-plan': {
      const workspace = await setWorkspace(call, { plan: plan() });
      return print(workspace, `Workspace ${workspace.id} is now on plan ${workspace.plan}`);
    }
    case 'workspace set-stop-words': {
      const workspace = await setWorkspace(call, {
        stop_words: required('words')
          .split(',')
          .filter((word) => word.trim()),
      });
      return print(
        { workspace_id: workspace.id, stop_words: workspace.stop_words },
        `Workspace ${workspace.id} stop words: ${workspace.stop_words.join(', ')}`,
      );
    }
    case 'workspace set-rate-limit': {
      const workspace = await setWorkspace(call, { rate_limit: wholeNumber('rps', 100_000, 'a whole number of requests per second') });
      return print(
        { workspace_id: workspace.id, rate_limit: workspace.rate_limit },
        `Workspace ${workspace.id} may make ${workspace.rate_limit} requests per second`,
      );
    }
    case 'workspace suspend':
    case 'workspace unsuspend': {
      const workspace = await setWorkspace(call, { suspended: command === 'workspace suspend' });
      return print(workspace, `Workspace ${workspace.id} is ${workspace.suspended ? 'suspended' : 'active again'}`);
    }
    case 'workspace onboard': {
      const signup = values.code
        ? { code: values.code, phone_number_id: required('phone-number-id'), waba_id: required('waba-id'), ...(values.pin && { pin: values.pin }) }
        : simulatorUrl
          ? await localSignup(simulatorUrl)
          : fail('--code, --phone-number-id and --waba-id (from Embedded Signup) are required for a deployed stack');
      const workspace = await data<WorkspaceView & { onboarding: { status: string; steps: { name: string; status: string }[] } }>(
        call('POST', `${workspacePath(required('id'))}/onboarding`, { ...signup, ...(values.mode && { mode: values.mode }) }),
      );
      const steps = workspace.onboarding.steps.map((s) => `  ${s.name.padEnd(16)} ${s.status}`).join('\n');
      return print(workspace, `Workspace ${workspace.id} onboarded with number ${signup.phone_number_id}\n${steps}`);
    }
    case 'workspace delete': {
      const id = required('id');
      const workspace = await data<WorkspaceView>(call('DELETE', workspacePath(id)));
      if (!values.wait) return print(workspace, `Workspace ${workspace.id} is being erased (admin workspace get --id ${workspace.id} shows how far)`);
      await waitErased(call, id);
      return print({ workspace_id: id, erased: true }, `Workspace ${id} is erased`);
    }
    case 'key create': {
      const body = { name: values.name ?? 'Admin key', ...(values.description && { description: values.description }) };
      const key = await data<{ api_key: string }>(call('POST', `${workspacePath(required('workspace'))}/keys`, body));
      return print(key, `API key ${key.api_key}`);
    }
    case 'number list': {
      const numbers = await data<{ id: string; display_phone_number: string; status: string }[]>(
        call('GET', `${workspacePath(required('workspace'))}/numbers`),
      );
      return print(numbers, numbers.map((n) => `${n.id}  ${n.display_phone_number || '-'}  ${n.status}`).join('\n'));
    }
    case 'number connect': {
      const body = { phone_number_id: required('phone-number-id'), waba_id: required('waba-id') };
      const number = await data<{ id: string }>(call('POST', `${workspacePath(required('workspace'))}/numbers`, body));
      return print(number, `Number ${number.id} connected`);
    }
    case 'number set-throughput': {
      const mps = wholeNumber('mps', MAX_THROUGHPUT, "the number's throughput in messages per second");
      const phoneNumberId = required('phone-number-id');
      await data(call('PATCH', `/admin/v1/numbers/${encodeURIComponent(phoneNumberId)}`, { throughput_mps: mps }));
      return print({ phone_number_id: phoneNumberId, throughput: mps }, `Number ${phoneNumberId} sends up to ${mps} messages per second`);
    }
    case 'rate-card get': {
      const card = await data<RateCardView>(call('GET', `${workspacePath(required('workspace'))}/rate-card`));
      return print(card, describeCard(card));
    }
    case 'rate-card set': {
      const card = await data<RateCardView>(call('PUT', `${workspacePath(required('workspace'))}/rate-card`, cardFile()));
      return print(card, describeCard(card));
    }
    default:
      fail(
        'usage: admin workspace create|list|get|set-plan|set-stop-words|set-rate-limit|suspend|unsuspend|onboard|delete, admin key create, admin number list|connect|set-throughput, admin rate-card get|set (see README)',
      );
  }
}

main().catch((error) => fail((error as Error).message));
