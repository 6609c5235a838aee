import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ScanCommand } from '#shared/data/table/commands';
import { randomDigits } from '#local/random';
import { db } from '#shared/data/table/client';
import { TEST_PLATFORM, useTestApi } from '../support/api';
import { eventually } from '../support/wait';

// The erasure's pause for writes under way (60 s in AWS); a send waiting out a suspension looks again every second, not every minute.
process.env.ERASURE_GRACE_SECONDS = '2';
process.env.PAUSE_PROBE_SCALE = '0.01';

/** Onboarding a business through the platform's Embedded Signup over /admin/v1 (contract §19), against the simulator's. */
const api = useTestApi({ runtime: true });

const admin = (method: string, path: string, body?: unknown, key = api.operatorKey) =>
  api.call(method, `/admin/v1${path}`, { key, ...(body !== undefined && { body }) });

interface Signup {
  code: string;
  phone_number_id: string;
  waba_id: string;
  pin: string;
}

/** A business completes the simulator's Embedded Signup; its page hands the operator these. */
async function signup(body: Record<string, unknown> = {}): Promise<Signup> {
  const reply = await fetch(`${api.simulator.url}/_simulate/embedded-signup`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(reply.status).toBe(200);
  return (await reply.json()) as Signup;
}

const simulator = async (method: string, path: string, body?: unknown) =>
  (
    await fetch(`${api.simulator.url}${path}`, {
      method,
      ...(body !== undefined && { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }),
    })
  ).json() as Promise<any>;

/** A workspace as the operator opens it for onboarding: `name, plan` only (contract §19), or with a first number the simulator knows. */
async function open(withNumber = false) {
  const number = { phone_number_id: randomDigits(15), waba_id: randomDigits(15) };
  if (withNumber) api.simulator.registerNumber(number.phone_number_id, number.waba_id);
  const reply = await admin('POST', '/workspaces', { name: 'Signed up', plan: 'growth', ...(withNumber && number) });
  expect(reply.status).toBe(201);
  return reply.body.data as { workspace: { id: string }; key: { api_key: string } };
}

const onboard = (workspaceId: string, body: object) => admin('POST', `/workspaces/${workspaceId}/onboarding`, body);

/** The workspace's token as the local secret store keeps it (a file, never the table). */
const storedToken = async (workspaceId: string): Promise<string> =>
  (JSON.parse(await readFile(join(process.env.LOCAL_WORKSPACE_SECRETS_DIR!, `${workspaceId}.json`), 'utf8')) as { access_token: string }).access_token;

const stepsOf = (reply: { body: any }) => Object.fromEntries(reply.body.data.onboarding.steps.map((s: { name: string; status: string }) => [s.name, s.status]));

const sendFrom = (key: string, from: string, to = `1415559${randomDigits(4)}`) =>
  api.call('POST', '/api/v1/messages', { key, body: { to, template: 'hello_world', from } });

describe('onboarding by Embedded Signup', () => {
  it('exchanges the code, keeps the token in the workspace secret only, registers, subscribes, connects and syncs; sends use its own token', async () => {
    const { workspace, key } = await open();
    const business = await signup();

    // Not connected before onboarding: nothing can be sent, from it or at all.
    expect((await sendFrom(key.api_key, business.phone_number_id)).body.error.code).toBe('unknown_number');
    const none = await api.call('POST', '/api/v1/messages', { key: key.api_key, body: { to: '14155550100', template: 'hello_world' } });
    expect([none.status, none.body.error.code]).toEqual([422, 'unknown_number']);
    expect((await api.call('GET', '/api/v1/numbers', { key: key.api_key })).body.data).toEqual([]);

    const reply = await onboard(workspace.id, business);
    expect(reply.status).toBe(200);
    expect(reply.body.data.onboarding).toEqual({
      phone_number_id: business.phone_number_id,
      waba_id: business.waba_id,
      mode: 'cloud_api',
      status: 'completed',
      steps: ['exchange_code', 'claim_account', 'register_number', 'subscribe_app', 'connect_number', 'sync_templates', 'sync_app_data'].map((name) => ({
        name,
        status: 'succeeded',
        at: expect.any(String),
        error: null,
      })),
      started_at: expect.any(String),
      updated_at: expect.any(String),
    });
    // Created without a number: the onboarded one is its first, and the default.
    expect(reply.body.data.numbers).toEqual([
      expect.objectContaining({ id: business.phone_number_id, waba_id: business.waba_id, status: 'connected', is_default: true }),
    ]);
    const subscribed = await fetch(`${api.simulator.url}/v23.0/${business.waba_id}/subscribed_apps`, {
      headers: { Authorization: `Bearer ${TEST_PLATFORM.access_token}` },
    });
    expect(((await subscribed.json()) as { data: unknown[] }).data).toHaveLength(1);

    // The business token: in the workspace's secret, nowhere in the table or the answers.
    const token = await storedToken(workspace.id);
    expect(token).not.toBe(TEST_PLATFORM.access_token);
    expect(JSON.stringify(reply.body)).not.toContain(token);
    expect(JSON.stringify((await admin('GET', `/workspaces/${workspace.id}`)).body)).not.toContain(token);
    const { Items } = await db().send(new ScanCommand({ TableName: process.env.TABLE_NAME! }));
    expect(Items!.length).toBeGreaterThan(0);
    expect(JSON.stringify(Items)).not.toContain(token);

    // Its templates were synced from its own business account; a send from its number goes out with its own token.
    const templates = await api.call('GET', `/api/v1/templates?waba_id=${business.waba_id}`, { key: key.api_key });
    expect(templates.body.data.length).toBeGreaterThan(0);
    const to = `1415559${randomDigits(4)}`;
    const sent = await sendFrom(key.api_key, business.phone_number_id, to);
    expect(sent.status).toBe(202);
    const [delivered] = await eventually(
      () => simulator('GET', `/_simulate/messages?to=${to}`).then((r) => r.data as { phone_number_id: string; access_token: string }[]),
      (list) => list.length === 1,
    );
    expect(delivered).toEqual(expect.objectContaining({ phone_number_id: business.phone_number_id, access_token: token }));

    // Without `from`: the default, onboarded number, with its own token.
    const plain = `1415559${randomDigits(4)}`;
    expect((await api.call('POST', '/api/v1/messages', { key: key.api_key, body: { to: plain, template: 'hello_world' } })).status).toBe(202);
    const [viaDefault] = await eventually(
      () => simulator('GET', `/_simulate/messages?to=${plain}`).then((r) => r.data as { phone_number_id: string; access_token: string }[]),
      (list) => list.length === 1,
    );
    expect(viaDefault).toEqual(expect.objectContaining({ phone_number_id: business.phone_number_id, access_token: token }));

    // Repeated once complete: answered as it is, the used code not exchanged again.
    const again = await onboard(workspace.id, business);
    expect(again.status).toBe(200);
    expect(again.body.data.onboarding).toEqual(reply.body.data.onboarding);
  });

  it('a workspace created with a number gets the onboarded one beside it (contract §17), the first staying the default', async () => {
    const { workspace } = await open(true);
    const business = await signup();
    const reply = await onboard(workspace.id, business);
    expect(reply.status).toBe(200);
    expect(reply.body.data.numbers).toHaveLength(2);
    expect(reply.body.data.numbers).toContainEqual(expect.objectContaining({ id: business.phone_number_id, is_default: false, status: 'connected' }));
  });

  it('is refused to workspace keys and without a key (401)', async () => {
    const { workspace, key } = await open();
    const business = await signup();
    for (const credential of [key.api_key, '']) {
      const refused = await admin('POST', `/workspaces/${workspace.id}/onboarding`, business, credential);
      expect(refused.status).toBe(401);
    }
    expect((await admin('GET', `/workspaces/${workspace.id}`)).body.data.onboarding).toBeNull();
  });

  it('refuses a used or an expired code (422 platform_error naming exchange_code, with the platform code 100); nothing is connected', async () => {
    const first = await open();
    const business = await signup();
    expect((await onboard(first.workspace.id, business)).status).toBe(200);

    const { workspace, key } = await open();
    const used = await onboard(workspace.id, business);
    expect(used.status).toBe(422);
    expect(used.body.error.code).toBe('platform_error');
    expect(used.body.error.details).toEqual(
      expect.arrayContaining([
        { field: 'step', message: 'exchange_code' },
        { field: 'code', message: '100' },
        { field: 'message', message: 'This authorization code has been used.' },
      ]),
    );
    expect(used.body.error.details[0]).toEqual({ field: 'step', message: 'exchange_code' });

    const late = await signup({ code_ttl_ms: 0 });
    const expired = await onboard(workspace.id, late);
    expect(expired.status).toBe(422);
    expect(expired.body.error.details).toEqual(
      expect.arrayContaining([
        { field: 'step', message: 'exchange_code' },
        { field: 'message', message: 'This authorization code has expired.' },
      ]),
    );
    const read = await admin('GET', `/workspaces/${workspace.id}`);
    expect(read.body.data.onboarding).toEqual(expect.objectContaining({ status: 'failed', phone_number_id: late.phone_number_id }));
    expect(read.body.data.onboarding.steps[0]).toEqual(
      expect.objectContaining({ name: 'exchange_code', status: 'failed', error: expect.objectContaining({ code: 'platform_error', platform_code: 100 }) }),
    );
    expect(read.body.data.numbers.map((n: { id: string }) => n.id)).not.toContain(late.phone_number_id);
    expect((await sendFrom(key.api_key, late.phone_number_id)).body.error.code).toBe('unknown_number');
  });

  it('a wrong PIN fails register_number (133005) with no number usable; the repeat with the right PIN resumes after the exchange and completes', async () => {
    const { workspace, key } = await open();
    const business = await signup();
    const wrongPin = business.pin === '000000' ? '111111' : '000000';

    const refused = await onboard(workspace.id, { ...business, pin: wrongPin });
    expect(refused.status).toBe(422);
    expect(refused.body.error.details).toEqual(
      expect.arrayContaining([
        { field: 'step', message: 'register_number' },
        { field: 'code', message: '133005' },
      ]),
    );
    const read = await admin('GET', `/workspaces/${workspace.id}`);
    expect(stepsOf(read)).toEqual({
      exchange_code: 'succeeded',
      claim_account: 'succeeded',
      register_number: 'failed',
      subscribe_app: 'pending',
      connect_number: 'pending',
      sync_templates: 'pending',
      sync_app_data: 'pending',
    });
    expect((await sendFrom(key.api_key, business.phone_number_id)).body.error.code).toBe('unknown_number');

    // The same (now used) code: the exchange is not repeated.
    const resumed = await onboard(workspace.id, business);
    expect(resumed.status).toBe(200);
    expect(resumed.body.data.onboarding.status).toBe('completed');
    expect((await sendFrom(key.api_key, business.phone_number_id)).status).toBe(202);
  });

  it('refuses, at claim_account, a number of another business (422 number_not_in_account), a number another workspace holds (409 number_in_use) and an account another workspace holds (409 account_in_use)', async () => {
    const first = await open();
    const business = await signup();
    expect((await onboard(first.workspace.id, business)).status).toBe(200);

    // Another business's account does not list this business's numbers.
    const { workspace } = await open();
    const other = await signup();
    const unheld = randomDigits(15);
    api.simulator.registerNumber(unheld, business.waba_id);
    const foreign = await onboard(workspace.id, { ...other, phone_number_id: unheld });
    expect(foreign.status).toBe(422);
    expect(foreign.body.error.code).toBe('number_not_in_account');
    expect(foreign.body.error.details).toEqual(expect.arrayContaining([{ field: 'step', message: 'claim_account' }]));
    // The first workspace's number, named with another account.
    const held = await onboard(workspace.id, { ...(await signup()), phone_number_id: business.phone_number_id });
    expect([held.status, held.body.error.code]).toEqual([409, 'number_in_use']);
    expect(held.body.error.details).toEqual([{ field: 'step', message: 'claim_account' }]);

    // The same business signs up again for the same number, for another workspace: the account is the first one's.
    const again = await signup({ phone_number_id: business.phone_number_id });
    const taken = await onboard(workspace.id, again);
    expect(taken.status).toBe(409);
    expect(taken.body.error.code).toBe('account_in_use');
    expect(taken.body.error.details).toEqual([{ field: 'step', message: 'claim_account' }]);
    const read = await admin('GET', `/workspaces/${first.workspace.id}`);
    expect(read.body.data.numbers.map((n: { id: string }) => n.id)).toContain(business.phone_number_id);
  });

  it('the platform failing at each step in turn: 502 platform_error naming the step, recorded; each repeat resumes after the last success and the last completes', async () => {
    const { workspace, key } = await open();
    const business = await signup();
    try {
      for (const [fault, step] of [
        ['code_exchange', 'exchange_code'],
        ['phone_numbers', 'claim_account'],
        ['register', 'register_number'],
        ['subscribed_apps', 'subscribe_app'],
        ['phone_number', 'connect_number'],
        ['message_templates', 'sync_templates'],
      ]) {
        await simulator('POST', '/_simulate/faults', { onboarding_fault: fault });
        const failed = await onboard(workspace.id, business);
        expect(failed.status).toBe(502);
        expect(failed.body.error.code).toBe('platform_error');
        expect(failed.body.error.details[0]).toEqual({ field: 'step', message: step });
        const read = await admin('GET', `/workspaces/${workspace.id}`);
        expect(read.body.data.onboarding.status).toBe('failed');
        expect(stepsOf(read)[step]).toBe('failed');
        // No number usable before its connect step succeeded.
        const connected = read.body.data.numbers.some((n: { id: string }) => n.id === business.phone_number_id);
        expect(connected).toBe(step === 'sync_templates');
      }
    } finally {
      await simulator('DELETE', '/_simulate/faults');
    }
    const completed = await onboard(workspace.id, business);
    expect(completed.status).toBe(200);
    expect(completed.body.data.onboarding.status).toBe('completed');
    expect((await sendFrom(key.api_key, business.phone_number_id)).status).toBe(202);
  });

  it('two requests at once with one code: each completes or names the step it lost, and a repeat completes (the exchanged code is not asked for again)', async () => {
    const { workspace, key } = await open();
    const business = await signup();
    const answers = await Promise.all([onboard(workspace.id, business), onboard(workspace.id, business)]);
    // One may lose a race on a step (the code exchanged by the other, the number connected by it): it names that step.
    for (const reply of answers) if (reply.status !== 200) expect(reply.body.error.details[0].field).toBe('step');
    const repeat = await onboard(workspace.id, business);
    expect(repeat.status).toBe(200);
    expect(repeat.body.data.onboarding.status).toBe('completed');
    expect((await sendFrom(key.api_key, business.phone_number_id)).status).toBe(202);
  });

  it('refuses bad input (400) and an unknown workspace (404)', async () => {
    const { workspace } = await open();
    const halfNumber = await admin('POST', '/workspaces', { name: 'Half', plan: 'pro', phone_number_id: randomDigits(15) });
    expect(halfNumber.status).toBe(400);
    expect(halfNumber.body.error.details).toEqual([{ field: 'waba_id', message: 'phone_number_id and waba_id go together: both or neither' }]);
    const bad = await onboard(workspace.id, { code: '', phone_number_id: '+1 555', waba_id: 7, pin: '12' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['code', 'phone_number_id', 'pin', 'waba_id']);
    const unknown = await onboard('0b9d4b2e-8f5c-4c1e-9a59-2f0f3f4e5d6c', await signup());
    expect(unknown.status).toBe(404);
  });
});

describe("a business's whole life on the operator's API", () => {
  it('created, onboarded, sending with its own token, suspended (403, its sends wait), unsuspended (they go), erased (nothing left, its number free)', async () => {
    const { workspace, key } = await open();
    const business = await signup();
    expect((await onboard(workspace.id, business)).status).toBe(200);
    const token = await storedToken(workspace.id);
    const sendsTo = (to: string) => simulator('GET', `/_simulate/messages?to=${to}`).then((r) => r.data as { access_token: string }[]);

    const first = `1415559${randomDigits(4)}`;
    expect((await sendFrom(key.api_key, business.phone_number_id, first)).status).toBe(202);
    const [sent] = await eventually(
      () => sendsTo(first),
      (list) => list.length === 1,
    );
    expect(sent.access_token).toBe(token);

    // A campaign that starts in 3 s, while the workspace is suspended: its send waits.
    const audience = `1415558${randomDigits(4)}`;
    const call = (method: string, path: string, body?: unknown) => api.call(method, path, { key: key.api_key, ...(body !== undefined && { body }) });
    const campaign = (
      await call('POST', '/api/v1/campaigns', { name: 'Held', template_name: 'hello_world', scheduled_at: new Date(Date.now() + 3000).toISOString() })
    ).body.data;
    expect((await call('POST', `/api/v1/campaigns/${campaign.id}/launch`, { recipients: [{ phone: audience }] })).status).toBe(202);
    expect((await admin('PATCH', `/workspaces/${workspace.id}`, { suspended: true })).status).toBe(200);
    const refused = await call('GET', '/api/v1/messages');
    expect([refused.status, refused.body.error.code]).toEqual([403, 'workspace_suspended']);
    await new Promise((resolve) => setTimeout(resolve, 6000));
    expect(await sendsTo(audience)).toHaveLength(0);
    expect((await admin('PATCH', `/workspaces/${workspace.id}`, { suspended: false })).status).toBe(200);
    const [resumed] = await eventually(
      () => sendsTo(audience),
      (list) => list.length === 1,
    );
    expect(resumed.access_token).toBe(token);

    // Erased: not one item names it or its number, its secret is gone, and another workspace can connect the number.
    expect((await admin('DELETE', `/workspaces/${workspace.id}`)).status).toBe(202);
    await eventually(
      () => admin('GET', `/workspaces/${workspace.id}`),
      (reply) => reply.status === 404,
      60_000,
    );
    const scan = async () => {
      const items: Record<string, unknown>[] = [];
      let start: Record<string, unknown> | undefined;
      do {
        const page = await db().send(new ScanCommand({ TableName: process.env.TABLE_NAME!, ExclusiveStartKey: start, ConsistentRead: true }));
        items.push(...(page.Items ?? []));
        start = page.LastEvaluatedKey;
      } while (start);
      return items.filter((item) => [workspace.id, business.phone_number_id].some((reference) => JSON.stringify(item).includes(reference)));
    };
    expect(await scan()).toEqual([]);
    await expect(storedToken(workspace.id)).rejects.toThrow('ENOENT');
    const next = await open();
    const connected = await admin('POST', `/workspaces/${next.workspace.id}/numbers`, { phone_number_id: business.phone_number_id, waba_id: business.waba_id });
    expect(connected.status).toBe(201);
  }, 120_000);
});
