import { callApi } from '#local/api-client';
import { startLocalStack, type RunningStack } from '#local/spawn-stack';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runAdmin } from '../support/admin';
import { eventually } from '../support/wait';
import { checkReply } from '../support/openapi-check';

let local: RunningStack;

beforeAll(async () => {
  local = await startLocalStack();
}, 120_000);
afterAll(async () => {
  await local?.stop();
});

/** A client call whose answer is checked against the API document. */
const call = async (method: string, path: string, key?: string, body?: unknown) => {
  const reply = await callApi(local.stack.base_url, method, path, { key, body });
  checkReply(method, path, reply);
  return reply;
};

describe('npm start, driven over HTTP', () => {
  it('serves the API reference page and its script itself, with no key', async () => {
    const page = await call('GET', '/docs');
    expect(page.status).toBe(200);
    const script = /src="([^"]+)"/.exec(page.body as string)![1];
    const served = await call('GET', `/${script}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  });

  it('prints a working key and lists the approved simulator templates', async () => {
    expect(local.output()).toContain(local.credentials.api_key);
    const templates = await call('GET', '/api/v1/templates', local.credentials.api_key);
    expect(templates.status).toBe(200);
    expect(templates.body.data.map((t: { name: string }) => t.name).sort()).toEqual([
      'coupon_drop',
      'delivery_window',
      'hello_world',
      'holiday_hours',
      'invoice_ready',
      'login_code',
      'order_update',
      'order_update',
      'spring_promo',
      'store_visit',
      'welcome',
    ]);
  });

  it('creates, lists masked and revokes keys; a revoked key gets 401; usage counts the calls', async () => {
    const { api_key: key } = local.credentials;
    const before = (await call('GET', '/api/v1/usage', key)).body.data.overview.total_requests;
    const created = await call('POST', '/api/v1/keys', key, { name: 'e2e' });
    expect(created.status).toBe(201);
    const listed = await call('GET', '/api/v1/keys', key);
    expect(listed.body.data.every((k: { api_key_prefix: string }) => /^sk_live_.{4}\.\.\.$/.test(k.api_key_prefix))).toBe(true);
    expect((await call('DELETE', `/api/v1/keys?id=${created.body.data.id}`, key)).status).toBe(200);
    expect((await call('GET', '/api/v1/keys', created.body.data.api_key)).status).toBe(401);
    const usage = await call('GET', '/api/v1/usage', key);
    expect(usage.body.data.overview.total_requests).toBe(before + 4);
  });

  it('the admin command creates a second workspace that sees none of the first one', async () => {
    const result = await runAdmin(local.dir, ['workspace', 'create', '--name', 'Second', '--plan', 'starter', '--json']);
    expect(result.code).toBe(0);
    const second = JSON.parse(result.stdout);
    expect(second).toEqual({ workspace_id: expect.any(String), api_key: expect.stringMatching(/^sk_live_/), phone_number_id: expect.stringMatching(/^\d+$/) });
    expect(second.workspace_id).not.toBe(local.credentials.workspace_id);

    const keys = await call('GET', '/api/v1/keys', second.api_key);
    expect(keys.body.data.map((k: { name: string }) => k.name)).toEqual(['Initial key']);
    expect((await call('GET', '/api/v1/usage', second.api_key)).body.data.overview.total_requests).toBe(1); // its own GET /keys just above
    const firstKeys = await call('GET', '/api/v1/keys', local.credentials.api_key);
    const revokeOther = await call('DELETE', `/api/v1/keys?id=${firstKeys.body.data[0].id}`, second.api_key);
    expect(revokeOther.status).toBe(404);

    const list = await runAdmin(local.dir, ['workspace', 'list', '--json']);
    expect(JSON.parse(list.stdout).map((w: { id: string }) => w.id)).toEqual(expect.arrayContaining([local.credentials.workspace_id, second.workspace_id]));
    const upgraded = await runAdmin(local.dir, ['workspace', 'set-plan', '--id', second.workspace_id, '--plan', 'growth', '--json']);
    expect(JSON.parse(upgraded.stdout).plan).toBe('growth');
    const extraKey = await runAdmin(local.dir, ['key', 'create', '--workspace', second.workspace_id, '--json']);
    expect((await call('GET', '/api/v1/keys', JSON.parse(extraKey.stdout).api_key)).status).toBe(200);

    expect((await runAdmin(local.dir, ['workspace', 'suspend', '--id', second.workspace_id])).code).toBe(0);
    const refused = await call('GET', '/api/v1/keys', second.api_key);
    expect([refused.status, refused.body.error.code]).toEqual([403, 'workspace_suspended']);
    expect((await runAdmin(local.dir, ['workspace', 'unsuspend', '--id', second.workspace_id])).code).toBe(0);
    expect((await call('GET', '/api/v1/keys', second.api_key)).status).toBe(200);

    // Onboarding by the simulator's Embedded Signup: the token in .local/workspace-secrets, never shown; sends use it.
    const onboarded = await runAdmin(local.dir, ['workspace', 'onboard', '--id', second.workspace_id, '--json']);
    expect(onboarded.code).toBe(0);
    const { onboarding } = JSON.parse(onboarded.stdout);
    expect(onboarding.status).toBe('completed');
    const token = (JSON.parse(readFileSync(join(local.dir, 'workspace-secrets', `${second.workspace_id}.json`), 'utf8')) as { access_token: string })
      .access_token;
    expect(onboarded.stdout).not.toContain(token);
    const to = '14155550177';
    const sent = await call('POST', '/api/v1/messages', second.api_key, { to, template: 'hello_world', from: onboarding.phone_number_id });
    expect(sent.status).toBe(202);
    const recorded = await eventually(
      async () => ((await (await fetch(`${local.stack.simulator_url}/_simulate/messages?to=${to}`)).json()) as { data: { access_token: string }[] }).data,
      (list) => list.length > 0,
    );
    expect(recorded.at(-1)!.access_token).toBe(token);
  }, 90_000);

  it("prints the operator key, which /admin/v1 takes and a workspace's key does not", async () => {
    const { operator_key, api_key } = local.credentials;
    expect(operator_key).toMatch(/^sk_operator_/);
    expect(local.output()).toContain(operator_key);
    expect((await call('GET', '/admin/v1/workspaces', api_key)).status).toBe(401);
    const list = await call('GET', '/admin/v1/workspaces', operator_key);
    expect(list.status).toBe(200);
    expect(list.body.data.map((w: { id: string }) => w.id)).toContain(local.credentials.workspace_id);
  });

  it('stops every child process on SIGTERM', async () => {
    const { dynamodb_endpoint, simulator_url, base_url } = local.stack;
    const code = await local.stop();
    expect(code).toBe(0);
    for (const url of [dynamodb_endpoint, simulator_url, base_url]) await expect(fetch(url)).rejects.toThrow();
    local = undefined as unknown as RunningStack;
  });
});
