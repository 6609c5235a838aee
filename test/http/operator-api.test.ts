import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomDigits } from '#local/random';
import { newOperatorKey } from '#local/operator-key';
import { hashSecret } from '#shared/domain/api-keys';
import { suspensionGate } from '#shared/domain/messages/suspension';
import { useTestApi } from '../support/api';
import { simulatorControl } from '../support/simulator';
import { eventually } from '../support/wait';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_RATE_CARD } from '#shared/domain/pricing/default-rate-card';
import { deployedAdmin } from '../../scripts/admin-client';
import { runAdmin } from '../support/admin';

/** The operator's API, /admin/v1 (contract §19), as the operator's client sees it. */
const api = useTestApi({ runtime: true, statusIntervalMs: 1000 });

/** `key`: the operator key unless given; '' sends none. */
const admin = (method: string, path: string, body?: unknown, key = api.operatorKey) =>
  api.call(method, `/admin/v1${path}`, { key, ...(body !== undefined && { body }) });

/** A number the simulator knows, as the platform would. */
const platformNumber = () => {
  const number = { phone_number_id: randomDigits(15), waba_id: randomDigits(15) };
  api.simulator.registerNumber(number.phone_number_id, number.waba_id);
  return number;
};

const open = async (plan = 'growth', name = 'Acme') => {
  const reply = await admin('POST', '/workspaces', { name, plan, ...platformNumber() });
  expect(reply.status).toBe(201);
  return reply.body.data as { workspace: { id: string; numbers: { id: string }[] }; key: { api_key: string } };
};

describe('operator authentication', () => {
  it('refuses no key, a workspace key, a wrong key and an operator key of an earlier start (401), and changes nothing', async () => {
    const { key } = await open();
    const name = `Intruder ${randomDigits(6)}`;
    const earlier = api.operatorKey;
    for (const credential of ['', key.api_key, newOperatorKey(), `${earlier}x`]) {
      const reply = await admin('POST', '/workspaces', { name, plan: 'pro', ...platformNumber() }, credential);
      expect(reply.status).toBe(401);
      expect(reply.body.error.code).toBe('unauthorized');
      expect(reply.headers.get('www-authenticate')).toBe('Bearer');
    }
    // A new start's key: the earlier one no longer works.
    const next = newOperatorKey();
    process.env.OPERATOR_KEY_SHA256 = hashSecret(next);
    try {
      expect((await admin('GET', '/workspaces', undefined, earlier)).status).toBe(401);
      const list = await admin('GET', '/workspaces', undefined, next);
      expect(list.status).toBe(200);
      expect(list.body.data.map((w: { name: string }) => w.name)).not.toContain(name);
    } finally {
      process.env.OPERATOR_KEY_SHA256 = hashSecret(earlier);
    }
  });
});

describe('workspaces', () => {
  it('creates a workspace with its first number and first key, shown once; the key works on /api/v1', async () => {
    const number = platformNumber();
    const reply = await admin('POST', '/workspaces', { name: 'Acme', plan: 'growth', ...number });
    expect(reply.status).toBe(201);
    const { workspace, key } = reply.body.data;
    expect(workspace).toEqual({
      id: expect.any(String),
      name: 'Acme',
      plan: 'growth',
      rate_limit: 100,
      stop_words: ['STOP', 'UNSUBSCRIBE', 'STOP PROMOTIONS'],
      suspended: false,
      status: 'active',
      numbers: [expect.objectContaining({ id: number.phone_number_id, waba_id: number.waba_id, is_default: true, status: 'connected' })],
      onboarding: null,
      erasure: null,
      created_at: expect.any(String),
    });
    expect(key).toEqual(expect.objectContaining({ name: 'Initial key', api_key: expect.stringMatching(/^sk_live_/) }));
    const templates = await api.call('GET', '/api/v1/templates', { key: key.api_key });
    expect(templates.status).toBe(200);
    expect(templates.body.data.length).toBeGreaterThan(0); // synced at creation
    // Shown once: reading the workspace never shows a secret.
    const read = await admin('GET', `/workspaces/${workspace.id}`);
    expect(JSON.stringify(read.body)).not.toContain(key.api_key);
  });

  it('refuses a number another workspace holds (409 number_in_use) and bad input (400)', async () => {
    const { workspace } = await open();
    const taken = await admin('POST', '/workspaces', { name: 'Other', plan: 'pro', phone_number_id: workspace.numbers[0].id, waba_id: '1' });
    expect(taken.status).toBe(409);
    expect(taken.body.error.code).toBe('number_in_use');
    const bad = await admin('POST', '/workspaces', { name: '', plan: 'gold', phone_number_id: '+1 555', waba_id: 7 });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['name', 'phone_number_id', 'plan', 'waba_id']);
  });

  it('lists and gets workspaces; an unknown id is 404, a malformed one 400', async () => {
    const { workspace } = await open('starter', 'Listed');
    const list = await admin('GET', '/workspaces');
    expect(list.status).toBe(200);
    expect(list.body.data).toContainEqual(expect.objectContaining({ id: workspace.id, name: 'Listed', plan: 'starter', rate_limit: 20 }));
    expect((await admin('GET', `/workspaces/${workspace.id}`)).body.data.id).toBe(workspace.id);
    const unknown = await admin('GET', '/workspaces/0b9d4b2e-8f5c-4c1e-9a59-2f0f3f4e5d6c');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('not_found');
    expect((await admin('GET', '/workspaces/not-a-uuid')).status).toBe(400);
  });

  it('updates the plan, rate limit and stop words; only the fields sent change', async () => {
    const { workspace } = await open('starter');
    const changed = await admin('PATCH', `/workspaces/${workspace.id}`, { plan: 'pro', stop_words: [' baja ', 'BAJA', 'Arrêt'] });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toEqual(expect.objectContaining({ plan: 'pro', rate_limit: 500, stop_words: ['baja', 'Arrêt'], suspended: false }));
    const limited = await admin('PATCH', `/workspaces/${workspace.id}`, { rate_limit: 7 });
    expect(limited.body.data).toEqual(expect.objectContaining({ plan: 'pro', rate_limit: 7, stop_words: ['baja', 'Arrêt'] }));
    const bad = await admin('PATCH', `/workspaces/${workspace.id}`, { rate_limit: 0, suspended: 'yes', stop_words: [''] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['rate_limit', 'stop_words.0', 'suspended']);
    expect((await admin('PATCH', '/workspaces/0b9d4b2e-8f5c-4c1e-9a59-2f0f3f4e5d6c', { plan: 'pro' })).status).toBe(404);
  });

  it('creates keys for a workspace, each shown once', async () => {
    const { workspace } = await open();
    const reply = await admin('POST', `/workspaces/${workspace.id}/keys`, { name: 'Backend' });
    expect(reply.status).toBe(201);
    expect(reply.body.data).toEqual(expect.objectContaining({ name: 'Backend', api_key: expect.stringMatching(/^sk_live_/) }));
    const keys = await api.call('GET', '/api/v1/keys', { key: reply.body.data.api_key });
    expect(keys.body.data.map((k: { name: string }) => k.name).sort()).toEqual(['Backend', 'Initial key']);
    expect((await admin('POST', '/workspaces/0b9d4b2e-8f5c-4c1e-9a59-2f0f3f4e5d6c/keys', { name: 'X' })).status).toBe(404);
  });
});

describe("workspaces' numbers", () => {
  it("lists and connects a workspace's numbers, and sets a number's throughput", async () => {
    const { workspace } = await open();
    const second = platformNumber();
    const connected = await admin('POST', `/workspaces/${workspace.id}/numbers`, second);
    expect(connected.status).toBe(201);
    expect(connected.body.data).toEqual(expect.objectContaining({ id: second.phone_number_id, is_default: false }));
    const numbers = await admin('GET', `/workspaces/${workspace.id}/numbers`);
    expect(numbers.body.data.map((n: { id: string }) => n.id)).toEqual([workspace.numbers[0].id, second.phone_number_id]);
    const other = await open();
    const taken = await admin('POST', `/workspaces/${other.workspace.id}/numbers`, second);
    expect(taken.status).toBe(409);
    // Its account is the first workspace's, and so is every number of it (contract §22).
    expect(taken.body.error.code).toBe('account_in_use');

    const throughput = await admin('PATCH', `/numbers/${second.phone_number_id}`, { throughput_mps: 200 });
    expect(throughput.status).toBe(200);
    expect(throughput.body.data).toEqual({ id: second.phone_number_id, throughput_mps: 200 });
    expect((await admin('PATCH', `/numbers/${randomDigits(15)}`, { throughput_mps: 200 })).status).toBe(404);
    expect((await admin('PATCH', `/numbers/${second.phone_number_id}`, { throughput_mps: 5000 })).status).toBe(400);
  });
});

describe("a workspace's rate card (contract §20)", () => {
  const card = {
    currency: 'EUR',
    default: { marketing: '0.1000', utility: '0.02' },
    markets: { '55': { marketing: '0.0625' }, '49': { marketing: '0.1365', service: '0' } },
  };

  it('answers the default card until the operator sets its own, which then prices its estimates', async () => {
    const { workspace, key } = await open();
    const before = await admin('GET', `/workspaces/${workspace.id}/rate-card`);
    expect(before.status).toBe(200);
    expect(before.body.data).toEqual({ source: 'default', ...DEFAULT_RATE_CARD });

    const set = await admin('PUT', `/workspaces/${workspace.id}/rate-card`, card);
    expect(set.status).toBe(200);
    expect(set.body.data).toEqual({ source: 'workspace', ...card });
    expect((await admin('GET', `/workspaces/${workspace.id}/rate-card`)).body.data).toEqual({ source: 'workspace', ...card });

    const campaign = (await api.call('POST', '/api/v1/campaigns', { key: key.api_key, body: { name: 'Priced', template_name: 'welcome' } })).body.data;
    const recipients = [`55119${randomDigits(8)}`, `4915${randomDigits(9)}`, `3361${randomDigits(7)}`].map((phone) => ({ phone, variables: ['Ada'] }));
    const estimate = await api.call('POST', `/api/v1/campaigns/${campaign.id}/estimate`, { key: key.api_key, body: { recipients } });
    expect(estimate.status).toBe(200);
    expect(estimate.body.data).toEqual(
      expect.objectContaining({
        currency: 'EUR',
        total: '0.2990',
        by_country: [
          { country: 'BR', recipients: 1, rate: '0.0625', amount: '0.0625' },
          { country: 'DE', recipients: 1, rate: '0.1365', amount: '0.1365' },
          { country: 'FR', recipients: 1, rate: '0.1000', amount: '0.1000' },
        ],
      }),
    );
  });

  it('refuses what is not a card (400, naming the field) and an unknown workspace (404), and keeps the card it had', async () => {
    const { workspace } = await open();
    await admin('PUT', `/workspaces/${workspace.id}/rate-card`, card);
    for (const [bad, field] of [
      [{ ...card, currency: 'usd' }, 'currency'],
      [{ ...card, default: { marketing: 0.1 } }, 'default.marketing'],
      [{ ...card, default: { marketing: '0.12345' } }, 'default.marketing'],
      [{ ...card, default: { marketing: '-1' } }, 'default.marketing'],
      [{ ...card, markets: { '55': { promotional: '0.1' } } }, 'markets.55'],
      [{ ...card, markets: { BR: { marketing: '0.1' } } }, 'markets'],
      [{ currency: 'USD', default: {} }, 'markets'],
      [{ ...card, tiers: [] }, 'tiers'],
    ] as const) {
      const reply = await admin('PUT', `/workspaces/${workspace.id}/rate-card`, bad);
      expect(reply.status).toBe(400);
      expect(reply.body.error.code).toBe('validation_error');
      expect(reply.body.error.details.map((d: { field: string }) => d.field)).toContainEqual(expect.stringContaining(field));
    }
    expect((await admin('GET', `/workspaces/${workspace.id}/rate-card`)).body.data).toEqual({ source: 'workspace', ...card });
    const unknown = '0b9d4b2e-8f5c-4c1e-9a59-2f0f3f4e5d6c';
    expect((await admin('PUT', `/workspaces/${unknown}/rate-card`, card)).status).toBe(404);
    expect((await admin('GET', `/workspaces/${unknown}/rate-card`)).status).toBe(404);
  });

  it('the admin command sets and reads it', async () => {
    const { workspace } = await open();
    const dir = mkdtempSync(join(tmpdir(), 'admin-'));
    writeFileSync(join(dir, 'credentials.json'), JSON.stringify({ base_url: api.baseUrl, operator_key: api.operatorKey }));
    writeFileSync(join(dir, 'card.json'), JSON.stringify(card));
    const set = await runAdmin(dir, ['rate-card', 'set', '--workspace', workspace.id, '--file', join(dir, 'card.json'), '--json']);
    expect(set.code).toBe(0);
    expect(JSON.parse(set.stdout)).toEqual({ source: 'workspace', ...card });
    const got = await runAdmin(dir, ['rate-card', 'get', '--workspace', workspace.id]);
    expect(got.stdout).toContain("The workspace's own card: EUR, 2 markets");
  }, 30_000);
});

describe('suspension (contract §19)', () => {
  const simulator = simulatorControl(() => api.simulator.url);
  let probeScale: string | undefined;
  beforeAll(() => {
    probeScale = process.env.PAUSE_PROBE_SCALE;
    process.env.PAUSE_PROBE_SCALE = '0.01'; // a waiting send looks again every second, not every minute
  });
  afterAll(() => {
    if (probeScale === undefined) delete process.env.PAUSE_PROBE_SCALE;
    else process.env.PAUSE_PROBE_SCALE = probeScale;
  });

  it('refuses its keys (403) while its scheduled campaign waits and its inbound messages and status reports are stored; unsuspended, everything goes', async () => {
    const { workspace, key } = await open('pro');
    const call = (method: string, path: string, body?: unknown) => api.call(method, path, { key: key.api_key, ...(body !== undefined && { body }) });
    const customer = `1415557${randomDigits(4)}`;
    const audience = `1415558${randomDigits(4)}`;

    // Sent before the suspension: its delivered and read reports arrive during it.
    const before = await call('POST', '/api/v1/messages', { to: customer, template: 'hello_world' });
    expect(before.status).toBe(202);
    await eventually(
      () => call('GET', `/api/v1/messages/${before.body.data.message_id}`),
      (r) => r.body.data?.status === 'sent',
    );
    // Starts in 3 s, while the workspace is suspended.
    const campaign = (
      await call('POST', '/api/v1/campaigns', { name: 'Held', template_name: 'welcome', scheduled_at: new Date(Date.now() + 3000).toISOString() })
    ).body.data;
    expect((await call('POST', `/api/v1/campaigns/${campaign.id}/launch`, { recipients: [{ phone: audience, variables: ['Ada'] }] })).status).toBe(202);

    const suspended = await admin('PATCH', `/workspaces/${workspace.id}`, { suspended: true });
    expect(suspended.body.data.suspended).toBe(true);
    for (const [method, path, body] of [
      ['GET', '/api/v1/keys'],
      ['POST', '/api/v1/messages', { to: customer, template: 'hello_world' }],
    ] as const) {
      const refused = await call(method, path, body);
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe('workspace_suspended');
    }
    await simulator.inbound({ phone_number_id: workspace.numbers[0].id, from: customer, text: 'Still there?' });
    // Past the campaign's start and several looks of its message: nothing went to the platform.
    await new Promise((resolve) => setTimeout(resolve, 6000));
    expect(await simulator.sends(audience)).toHaveLength(0);

    expect((await admin('PATCH', `/workspaces/${workspace.id}`, { suspended: false })).body.data.suspended).toBe(false);
    await eventually(
      () => simulator.sends(audience),
      (sends) => sends.length === 1,
    );
    const done = await eventually(
      () => call('GET', `/api/v1/campaigns/${campaign.id}/results`),
      (r) => r.body.data.metrics.failed === 0 && r.body.data.metrics.sent + r.body.data.metrics.delivered + r.body.data.metrics.read === 1,
    );
    expect(done.status).toBe(200);
    expect((await call('GET', `/api/v1/messages/${before.body.data.message_id}`)).body.data.status).toBe('read');
    const inbound = await call('GET', '/api/v1/messages?direction=inbound');
    expect(inbound.body.data).toContainEqual(expect.objectContaining({ phone_number: customer, direction: 'inbound' }));
  }, 60_000);
});

describe("a suspended workspace's waiting sends", () => {
  const workspace = { id: 'w', name: 'W', plan: 'pro', phone_number_id: '1', waba_id: '2', created_at: '2026-01-01T00:00:00.000Z' } as const;
  const at = Date.parse('2026-11-22T10:00:00.000Z');

  it('look again every minute in the first hour of the suspension, then every 15 minutes; an active workspace has no gate', () => {
    const suspended = { ...workspace, suspended: true, suspended_at: new Date(at).toISOString() };
    expect(suspensionGate(suspended, at + 59 * 60_000)).toEqual({ kind: 'wait', ms: 60_000 });
    expect(suspensionGate(suspended, at + 61 * 60_000)).toEqual({ kind: 'wait', ms: 15 * 60_000 });
    expect(suspensionGate(workspace, at)).toBeUndefined();
  });
});

describe('the admin command against a deployed stack', () => {
  it('signs each request with SigV4 for execute-api, with the AWS credentials of the default chain', async () => {
    const seen: Record<string, string | undefined>[] = [];
    const server = createServer((request, response) => {
      seen.push({ authorization: request.headers.authorization, date: String(request.headers['x-amz-date']), url: request.url });
      response.writeHead(200, { 'Content-Type': 'application/json' }).end('{"success":true,"data":[]}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
    Object.assign(process.env, { AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE', AWS_SECRET_ACCESS_KEY: 'example-secret' });
    try {
      const call = deployedAdmin(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, 'eu-west-1');
      const reply = await call('GET', '/admin/v1/workspaces');
      expect(reply).toEqual({ status: 200, body: { success: true, data: [] } });
      expect(seen).toEqual([
        {
          authorization: expect.stringMatching(
            /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/eu-west-1\/execute-api\/aws4_request, SignedHeaders=\S*host\S*, Signature=[0-9a-f]{64}$/,
          ),
          date: expect.stringMatching(/^\d{8}T\d{6}Z$/),
          url: '/admin/v1/workspaces',
        },
      ]);
    } finally {
      Object.assign(process.env, { AWS_ACCESS_KEY_ID: saved.id, AWS_SECRET_ACCESS_KEY: saved.secret });
      if (saved.id === undefined) delete process.env.AWS_ACCESS_KEY_ID;
      if (saved.secret === undefined) delete process.env.AWS_SECRET_ACCESS_KEY;
      server.close();
    }
  });
});
