import { Webhook } from 'standardwebhooks';
import { randomDigits } from '#local/random';
import { env } from '#shared/config';
import { TEST_PLATFORM, useTestApi, type TestWorkspace } from '../support/api';
import { startReceiver } from '../support/receiver';
import { simulatorControl } from '../support/simulator';
import { eventually } from '../support/wait';

const GRAPH_VERSION = env.graphApiVersion;
const api = useTestApi({ runtime: true, statusIntervalMs: 20 });
const simulator = simulatorControl(() => api.simulator.url);

const call = (ws: TestWorkspace, method: string, path: string, body?: unknown) => api.call(method, path, { key: ws.key, ...(body !== undefined && { body }) });
/** A number of a new business account is connected by the operator (contract §22): the workspace has no token of its own. */
const connectByOperator = (ws: TestWorkspace, body: { phone_number_id: string; waba_id: string }) =>
  api.call('POST', `/admin/v1/workspaces/${ws.id}/numbers`, { key: api.operatorKey, body });
const registered = async (wabaId: string, details: Record<string, unknown> = {}) => {
  const id = randomDigits(15);
  await fetch(`${api.simulator.url}/_simulate/numbers`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ phone_number_id: id, waba_id: wabaId, ...details }),
  });
  return id;
};
/** A valid US number of its own (a NANP exchange never starts with 0 or 1, so the exchange is fixed). */
const customerNumber = () => `1415556${randomDigits(4)}`;
const settled = (ws: TestWorkspace, id: string, status = 'read') =>
  eventually(
    () => call(ws, 'GET', `/api/v1/messages/${id}`),
    (r) => r.body.data.status === status,
    30_000,
  ).then((r) => r.body.data);

describe('several numbers per workspace (contract §17)', () => {
  it('lists the first number as the default, read from the platform once', async () => {
    const ws = await api.workspaceWithTemplates();
    const reply = await call(ws, 'GET', '/api/v1/numbers');
    expect(reply.status).toBe(200);
    expect(reply.body.data).toEqual([
      expect.objectContaining({
        id: ws.phoneNumberId,
        waba_id: ws.wabaId,
        is_default: true,
        status: 'connected',
        quality_rating: 'GREEN',
        messaging_limit: 'TIER_2K',
      }),
    ]);
    expect(reply.body.data[0].display_phone_number).toMatch(/^1555\d{7}$/);
  });

  it('connects a second number of another account: read from the platform, the app subscribed to its account, its templates synced', async () => {
    const ws = await api.workspaceWithTemplates();
    const otherAccount = randomDigits(15);
    const id = await registered(otherAccount, {
      display_phone_number: '+44 20 7946 0011',
      verified_name: 'Acme UK',
      quality_rating: 'YELLOW',
      messaging_limit_tier: 'TIER_10K',
    });
    // The workspace alone, without a token of its own, cannot take an account: the shared token is the operator's to use.
    const alone = await call(ws, 'POST', '/api/v1/numbers', { phone_number_id: id, waba_id: otherAccount });
    expect(alone.status).toBe(422);
    expect(alone.body.error.code).toBe('number_not_in_account');
    const reply = await connectByOperator(ws, { phone_number_id: id, waba_id: otherAccount });
    expect(reply.status).toBe(201);
    expect(reply.body.data).toMatchObject({
      id,
      waba_id: otherAccount,
      display_phone_number: '442079460011',
      verified_name: 'Acme UK',
      quality_rating: 'YELLOW',
      messaging_limit: 'TIER_10K',
      throughput_mps: 80,
      status: 'connected',
      paused_reason: null,
      is_default: false,
    });
    const subscribed = (await (
      await fetch(`${api.simulator.url}/${GRAPH_VERSION}/${otherAccount}/subscribed_apps`, {
        headers: { Authorization: `Bearer ${TEST_PLATFORM.access_token}` },
      })
    ).json()) as { data: unknown[] };
    expect(subscribed.data).toHaveLength(1);
    const templates = (await call(ws, 'GET', `/api/v1/templates?waba_id=${otherAccount}`)).body.data;
    expect(templates.length).toBeGreaterThan(0);
    expect(templates.every((t: { waba_id: string }) => t.waba_id === otherAccount)).toBe(true);
    expect((await call(ws, 'GET', '/api/v1/numbers')).body.data.map((n: { id: string }) => n.id)).toEqual([ws.phoneNumberId, id]);
  });

  it('refuses a number its account does not list (422 number_not_in_account), and one of an account the platform does not know with its code; stores nothing', async () => {
    const ws = await api.workspace();
    const reply = await call(ws, 'POST', '/api/v1/numbers', { phone_number_id: '999000111222333', waba_id: ws.wabaId });
    expect(reply.status).toBe(422);
    expect(reply.body.error.code).toBe('number_not_in_account');
    const unknown = await connectByOperator(ws, { phone_number_id: '999000111222333', waba_id: '999000111222444' });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.code).toBe('platform_error');
    expect(unknown.body.error.details).toEqual(expect.arrayContaining([{ field: 'code', message: '100' }]));
    expect((await call(ws, 'GET', '/api/v1/numbers')).body.data).toHaveLength(1);
  });

  it('gives a number connected from two workspaces at once to exactly one of them', async () => {
    const account = randomDigits(15);
    const id = await registered(account);
    const workspaces = await Promise.all(Array.from({ length: 6 }, () => api.workspace()));
    const replies = await Promise.all(workspaces.map((ws) => connectByOperator(ws, { phone_number_id: id, waba_id: account })));
    expect(replies.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    for (const refused of replies.filter((r) => r.status === 409)) expect(refused.body.error.code).toBe('account_in_use');
    const owners = await Promise.all(
      workspaces.map(async (ws) => (await call(ws, 'GET', '/api/v1/numbers')).body.data.some((n: { id: string }) => n.id === id)),
    );
    expect(owners.filter(Boolean)).toHaveLength(1);
  });

  it('sends from each number, routes the reply to the number it reached, and keeps each window to its number', async () => {
    const ws = await api.workspaceWithTemplates();
    const second = await registered(ws.wabaId);
    expect((await call(ws, 'POST', '/api/v1/numbers', { phone_number_id: second, waba_id: ws.wabaId })).status).toBe(201);
    const customer = customerNumber();

    const fromFirst = await call(ws, 'POST', '/api/v1/messages', { to: customer, template: 'hello_world' });
    const fromSecond = await call(ws, 'POST', '/api/v1/messages', { to: customer, template: 'hello_world', from: second });
    expect([fromFirst.status, fromSecond.status]).toEqual([202, 202]);
    expect(fromFirst.body.data.business_number_id).toBe(ws.phoneNumberId);
    expect(fromSecond.body.data.business_number_id).toBe(second);
    await settled(ws, fromFirst.body.data.message_id);
    expect(await settled(ws, fromSecond.body.data.message_id)).toMatchObject({ business_number_id: second });
    const sends = await eventually(
      () => fetch(`${api.simulator.url}/_simulate/messages?to=${customer}`).then(async (r) => (await r.json()) as { data: { phone_number_id: string }[] }),
      (r) => r.data.length === 2,
    );
    expect(sends.data.map((s) => s.phone_number_id).sort()).toEqual([ws.phoneNumberId, second].sort());

    // The customer writes to the second number only: its window opens, the first's stays closed.
    await simulator.inbound({ phone_number_id: second, from: customer, text: 'Hi, second line' });
    const received = await eventually(
      () => call(ws, 'GET', `/api/v1/messages?direction=inbound&phone=${customer}`),
      (r) => r.body.data.length === 1,
    );
    expect(received.body.data[0].business_number_id).toBe(second);
    expect((await call(ws, 'POST', '/api/v1/messages', { to: customer, text: 'Hello', from: second })).status).toBe(202);
    const closed = await call(ws, 'POST', '/api/v1/messages', { to: customer, text: 'Hello' });
    expect(closed.status).toBe(422);
    expect(closed.body.error.code).toBe('session_window_closed');
  });

  it('lists the messages of one number with an exact totalCount, the first number included, alone and with other filters', async () => {
    const ws = await api.workspaceWithTemplates();
    const second = await registered(ws.wabaId);
    await call(ws, 'POST', '/api/v1/numbers', { phone_number_id: second, waba_id: ws.wabaId });
    const customer = customerNumber();
    const sends = [
      { to: customer, template: 'hello_world' },
      { to: customerNumber(), template: 'hello_world', from: ws.phoneNumberId },
      { to: customer, template: 'hello_world', from: second },
      { to: customerNumber(), template: 'hello_world', from: second },
      { to: customerNumber(), template: 'hello_world', from: second },
    ];
    const ids = [];
    for (const body of sends) ids.push((await call(ws, 'POST', '/api/v1/messages', body)).body.data.message_id);
    for (const id of ids) await settled(ws, id);
    await simulator.inbound({ phone_number_id: second, from: customer, text: 'Hi, second line' });

    const listed = async (query: string, expected: { count: number; total: number }) => {
      const reply = await eventually(
        () => call(ws, 'GET', `/api/v1/messages?${query}`),
        (r) => r.body.pagination?.totalCount === expected.total && r.body.data.length === expected.count,
      );
      return reply.body.data as { id: string; business_number_id: string; direction: string }[];
    };
    const ofFirst = await listed(`business_number_id=${ws.phoneNumberId}`, { count: 2, total: 2 });
    expect(ofFirst.map((m) => m.id).sort()).toEqual(ids.slice(0, 2).sort());
    const ofSecond = await listed(`business_number_id=${second}&pageSize=2`, { count: 2, total: 4 });
    expect(ofSecond.every((m) => m.business_number_id === second)).toBe(true);
    expect(await listed(`business_number_id=${second}&direction=outbound&status=read`, { count: 3, total: 3 })).toHaveLength(3);
    const conversation = await listed(`business_number_id=${second}&phone=${customer}`, { count: 2, total: 2 });
    expect(conversation.map((m) => m.direction).sort()).toEqual(['inbound', 'outbound']);
    expect(await listed(`business_number_id=${ws.phoneNumberId}&phone=${customer}`, { count: 1, total: 1 })).toHaveLength(1);
    expect(await listed(`business_number_id=${randomDigits(15)}`, { count: 0, total: 0 })).toHaveLength(0);
    expect(await listed('', { count: 6, total: 6 })).toHaveLength(6);
    const invalid = await call(ws, 'GET', '/api/v1/messages?business_number_id=not-a-number');
    expect(invalid.status).toBe(400);
    expect(invalid.body.error).toMatchObject({ code: 'validation_error', details: [{ field: 'business_number_id' }] });
  });

  it('resolves `from` by id or display number in any format, and refuses another workspace number or a disconnected one', async () => {
    const ws = await api.workspaceWithTemplates();
    const other = await api.workspace();
    const second = await registered(ws.wabaId, { display_phone_number: '+1 555-010-7788' });
    await call(ws, 'POST', '/api/v1/numbers', { phone_number_id: second, waba_id: ws.wabaId });
    for (const from of ['+1 555-010-7788', '15550107788', '+1 (555) 010 7788', '1.555.010.7788', second]) {
      const reply = await call(ws, 'POST', '/api/v1/messages', { to: '+14155550100', template: 'hello_world', from });
      expect({ from, status: reply.status, number: reply.body.data?.business_number_id }).toEqual({ from, status: 202, number: second });
    }
    const foreign = await call(ws, 'POST', '/api/v1/messages', { to: '+14155550100', template: 'hello_world', from: other.phoneNumberId });
    expect(foreign.status).toBe(422);
    expect(foreign.body.error.code).toBe('unknown_number');

    expect((await call(ws, 'DELETE', `/api/v1/numbers/${second}`)).status).toBe(200);
    const gone = await call(ws, 'POST', '/api/v1/messages', { to: '+14155550100', template: 'hello_world', from: second });
    expect(gone.body.error.code).toBe('unknown_number');
  });

  it('moves the default, and refuses to disconnect the only number or the default', async () => {
    const ws = await api.workspaceWithTemplates();
    const only = await call(ws, 'DELETE', `/api/v1/numbers/${ws.phoneNumberId}`);
    expect(only.status).toBe(409);
    expect(only.body.error.code).toBe('invalid_state');
    const second = await registered(ws.wabaId);
    await call(ws, 'POST', '/api/v1/numbers', { phone_number_id: second, waba_id: ws.wabaId });
    expect((await call(ws, 'DELETE', `/api/v1/numbers/${ws.phoneNumberId}`)).status).toBe(409);

    const patched = await call(ws, 'PATCH', `/api/v1/numbers/${second}`, { is_default: true });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({ id: second, is_default: true });
    const sent = await call(ws, 'POST', '/api/v1/messages', { to: '+14155550101', template: 'hello_world' });
    expect(sent.body.data.business_number_id).toBe(second);
    expect((await call(ws, 'DELETE', `/api/v1/numbers/${ws.phoneNumberId}`)).status).toBe(200);
    expect((await call(ws, 'GET', '/api/v1/numbers')).body.data.map((n: { id: string }) => n.id)).toEqual([second]);
  });

  it('sends a campaign from the second number', async () => {
    const ws = await api.workspaceWithTemplates();
    const second = await registered(ws.wabaId);
    await call(ws, 'POST', '/api/v1/numbers', { phone_number_id: second, waba_id: ws.wabaId });
    const campaign = (await call(ws, 'POST', '/api/v1/campaigns', { name: 'Second line', template_name: 'hello_world', from: second })).body.data;
    // Outside customerNumber()'s exchange: the file's other tests send to random customers there, from other workspaces' numbers.
    const line = randomDigits(3);
    const recipients = [`1415559${line}1`, `1415559${line}2`];
    expect((await call(ws, 'POST', `/api/v1/campaigns/${campaign.id}/launch`, { recipients: recipients.map((phone) => ({ phone })) })).status).toBe(202);
    await eventually(
      () => call(ws, 'GET', `/api/v1/campaigns/${campaign.id}/results`),
      (r) => r.body.data.status === 'completed',
      30_000,
    );
    for (const to of recipients)
      expect((await simulator.sends(to)).map((s) => (s as unknown as { phone_number_id: string }).phone_number_id)).toEqual([second]);
    const listed = (await call(ws, 'GET', `/api/v1/messages?campaign_id=${campaign.id}`)).body.data;
    expect(listed.map((m: { business_number_id: string }) => m.business_number_id)).toEqual([second, second]);
    const ofNumber = async (numberId: string) => (await call(ws, 'GET', `/api/v1/messages?campaign_id=${campaign.id}&business_number_id=${numberId}`)).body;
    expect((await ofNumber(second)).pagination.totalCount).toBe(2);
    expect(await ofNumber(ws.phoneNumberId)).toMatchObject({ data: [], pagination: { totalCount: 0 } });
  });

  it("keeps two business accounts' templates apart: a template paused in one still sends from the other", async () => {
    const ws = await api.workspaceWithTemplates();
    const otherAccount = randomDigits(15);
    const second = await registered(otherAccount);
    await simulator.templateStatus({ waba_id: otherAccount, name: 'hello_world', language: 'en_US', event: 'PAUSED' });
    expect((await connectByOperator(ws, { phone_number_id: second, waba_id: otherAccount })).status).toBe(201);
    const paused = await call(ws, 'POST', '/api/v1/messages', { to: '+14155550102', template: 'hello_world', from: second });
    expect(paused.status).toBe(422);
    expect(paused.body.error.code).toBe('template_not_approved');
    expect((await call(ws, 'POST', '/api/v1/messages', { to: '+14155550102', template: 'hello_world' })).status).toBe(202);
    const ids = (await call(ws, 'GET', '/api/v1/templates?status=PAUSED')).body.data.map((t: { waba_id: string }) => t.waba_id);
    expect(ids).toEqual([otherAccount]);
  });

  it('takes a quality update pushed by the platform into the number and announces number.updated', async () => {
    const ws = await api.workspaceWithTemplates();
    const second = await registered(ws.wabaId);
    await call(ws, 'POST', '/api/v1/numbers', { phone_number_id: second, waba_id: ws.wabaId });
    const receiver = await startReceiver();
    const sub = (await call(ws, 'POST', '/api/v1/webhooks', { url: receiver.url, events: ['number.updated'] })).body.data;
    const pushed = await fetch(`${api.simulator.url}/_simulate/number-quality`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ phone_number_id: second, event: 'DOWNGRADE', quality_rating: 'RED', messaging_limit_tier: 'TIER_250' }),
    });
    expect(pushed.status).toBe(200);
    const numbers = await eventually(
      () => call(ws, 'GET', '/api/v1/numbers'),
      (r) => r.body.data.some((n: { id: string; quality_rating: string }) => n.id === second && n.quality_rating === 'RED'),
    );
    expect(numbers.body.data.find((n: { id: string }) => n.id === second)).toMatchObject({ quality_rating: 'RED', messaging_limit: 'TIER_250' });
    try {
      const events = await eventually(
        async () =>
          receiver.received.map((r) => new Webhook(sub.signing_secret).verify(r.body, r.headers as Record<string, string>) as { type: string; data: unknown }),
        (e) => e.length > 0,
      );
      expect(events).toEqual(
        [
          { type: 'number.updated', data: expect.objectContaining({ id: second, quality_rating: 'RED', messaging_limit: 'TIER_250', status: 'connected' }) },
        ].map((e) => expect.objectContaining(e)),
      );
    } finally {
      await receiver.stop();
    }
  });
});
