import { PutCommand } from '#shared/data/table/commands';
import { inClosedMarket } from '#shared/domain/messages/markets';
import { hourOf, sentHourKey, sentInLastDay } from '#shared/data/sent-hours';
import { db, tableName } from '#shared/data/table/client';
import { useTestApi, type TestWorkspace } from '../support/api';
import { simulatorControl } from '../support/simulator';
import { eventually } from '../support/wait';

/** Contract §21, the platform as it is in late 2026: closed markets, portfolio limits, customers known by user id. */
const api = useTestApi({ runtime: true, statusIntervalMs: 20 });
const simulator = simulatorControl(() => api.simulator.url);

const results = async (ws: TestWorkspace, id: string) => (await api.call('GET', `/api/v1/campaigns/${id}/results`, { key: ws.key })).body.data;
const send = (ws: TestWorkspace, body: Record<string, unknown>) => api.call('POST', '/api/v1/messages', { key: ws.key, body });

/** Runs `body` with the deployment's closed markets set to `markets` (read lazily, so per test). */
async function withClosedMarkets<T>(markets: string[], body: () => Promise<T>): Promise<T> {
  const saved = process.env.CLOSED_MARKETS;
  process.env.CLOSED_MARKETS = JSON.stringify(markets);
  try {
    return await body();
  } finally {
    process.env.CLOSED_MARKETS = saved;
  }
}

describe('markets closed to marketing', () => {
  it('knows a market by calling code or by region', () => {
    expect(inClosedMarket('14155550123', ['1'])).toBe(true);
    expect(inClosedMarket('16135550123', ['1'])).toBe(true);
    expect(inClosedMarket('14155550123', ['US'])).toBe(true);
    // Canada shares calling code 1, not the platform's United States pause.
    expect(inClosedMarket('16135550123', ['US'])).toBe(false);
    expect(inClosedMarket('447911123456', ['1', 'US'])).toBe(false);
    expect(inClosedMarket('14155550123', [])).toBe(false);
  });

  it('refuses a single marketing send to a closed market, and sends utility there', async () => {
    const ws = await api.workspaceWithTemplates();
    await withClosedMarkets(['1'], async () => {
      const refused = await send(ws, { to: '+14155552001', template: 'welcome', variables: ['Ann'] });
      expect(refused.status).toBe(422);
      expect(refused.body.error.code).toBe('market_not_allowed');
      const utility = await send(ws, { to: '+14155552001', template: 'order_update', variables: ['Ann', 'A-1'] });
      expect(utility.status).toBe(202);
      const elsewhere = await send(ws, { to: '+447911123456', template: 'welcome', variables: ['Bea'] });
      expect(elsewhere.status).toBe(202);
    });
    // Without the setting (the local stack's default) the same send is accepted.
    expect((await send(ws, { to: '+14155552001', template: 'welcome', variables: ['Ann'] })).status).toBe(202);
  });

  it("counts a campaign's recipients in a closed market failed, without a platform call, and sends the rest", async () => {
    const ws = await api.workspaceWithTemplates();
    const campaign = (await api.call('POST', '/api/v1/campaigns', { key: ws.key, body: { name: 'Promo', template_name: 'welcome' } })).body.data;
    const launched = await withClosedMarkets(['1'], () =>
      api.call('POST', `/api/v1/campaigns/${campaign.id}/launch`, {
        key: ws.key,
        body: { recipients: [{ phone: '+14155552101' }, { phone: '+16135552102' }, { phone: '+447911123457' }], template_variables: ['{{phone}}'] },
      }),
    );
    expect(launched.status).toBe(202);
    expect(launched.body.data).toMatchObject({ total_recipients: 3, excluded_opted_out: 0, excluded_market_not_allowed: 2 });
    // The fan-out reads the setting too: it stays set until the campaign completes.
    const done = await withClosedMarkets(['1'], () =>
      eventually(
        () => results(ws, campaign.id),
        (r) => r.status === 'completed' && r.metrics.read === 1,
        30_000,
      ),
    );
    expect(done.metrics).toMatchObject({ total_messages: 3, pending: 0, read: 1, failed: 2 });
    expect(done.failed_by_code).toEqual({ market_not_allowed: 2 });
    expect(await simulator.sends('14155552101')).toEqual([]);
    expect(await simulator.sends('16135552102')).toEqual([]);
    expect(await simulator.sends('447911123457')).toHaveLength(1);
  });
});

describe('portfolio messaging limits', () => {
  const numbers = async (ws: TestWorkspace) => (await api.call('GET', '/api/v1/numbers', { key: ws.key })).body.data;

  it("shows the portfolio's limit, follows business_capability_update, and warns a launch over what is left", async () => {
    const ws = await api.workspaceWithTemplates();
    expect((await numbers(ws))[0]).toMatchObject({ messaging_limit: 'TIER_2K', portfolio_messaging_limit: 2000 });
    const pushed = await fetch(`${api.simulator.url}/_simulate/messaging-limit`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ waba_id: ws.wabaId, limit: 250 }),
    });
    expect(pushed.status).toBe(200);
    await eventually(
      () => numbers(ws),
      (list) => list[0].portfolio_messaging_limit === 250,
    );
    expect((await numbers(ws))[0].messaging_limit).toBe('TIER_250');

    // One template message handed to the platform counts in used_24h (the table stream counts it).
    const sent = (await send(ws, { to: '+14155552301', template: 'order_update', variables: ['Ann', 'A-1'] })).body.data;
    await eventually(
      async () => (await api.call('GET', `/api/v1/messages/${sent.message_id}`, { key: ws.key })).body.data.status,
      (status) => status === 'read',
    );
    await eventually(
      () => sentInLastDay(ws.id),
      (used) => used === 1,
    );
    // …and 247 more from earlier in the day, written as the counting step writes them.
    await db().send(new PutCommand({ TableName: tableName(), Item: { ...sentHourKey(ws.id, hourOf(Date.now()) - 3, 5), sent: 247 } }));

    const launch = async (recipients: string[]) => {
      const campaign = (await api.call('POST', '/api/v1/campaigns', { key: ws.key, body: { name: 'Limit', template_name: 'order_update' } })).body.data;
      return api.call('POST', `/api/v1/campaigns/${campaign.id}/launch`, {
        key: ws.key,
        body: { recipients: recipients.map((phone) => ({ phone })), template_variables: ['{{name}}', 'X'] },
      });
    };
    const within = await launch(['+14155552311', '+14155552312']);
    expect(within.status).toBe(202);
    expect(within.body.data.limit_warning).toBeNull();
    const over = await launch(['+14155552321', '+14155552322', '+14155552323', '+14155552324']);
    // 248 used of 250, and the first launch's 2 sent or not yet: 4 new recipients are over what is left; it is sent all the same.
    expect(over.status).toBe(202);
    expect(over.body.data.status).toBe('running');
    expect(over.body.data.limit_warning).toEqual({ limit: 250, used_24h: expect.any(Number), audience: 4 });
    expect(over.body.data.limit_warning.used_24h).toBeGreaterThanOrEqual(248);
    for (const id of [within.body.data.campaign_id, over.body.data.campaign_id]) {
      await eventually(
        () => results(ws, id),
        (r) => r.status === 'completed',
      );
    }
  });
});

describe('customers known by a business-scoped user id', () => {
  const inbound = (ws: TestWorkspace, body: Record<string, unknown>) => simulator.inbound({ phone_number_id: ws.phoneNumberId, text: 'Hi', ...body } as never);
  const messages = async (ws: TestWorkspace) => (await api.call('GET', '/api/v1/messages', { key: ws.key })).body.data;
  const contacts = async (ws: TestWorkspace) => (await api.call('GET', '/api/v1/contacts', { key: ws.key })).body.data;

  it('stores their message, answers them in `recipient`, refuses an OTP to them, and sends a campaign to a contact with only a user id', async () => {
    const ws = await api.workspaceWithTemplates();
    const userId = 'US.13491208655302741918';
    const arrived = await inbound(ws, { user_id: userId, username: 'ann.doe', name: 'Ann' });
    expect(arrived.delivered_status).toBe(200);
    const [received] = await eventually(
      () => messages(ws),
      (list) => list.length === 1,
    );
    const stored = (await api.call('GET', `/api/v1/messages/${received.id}`, { key: ws.key })).body.data;
    expect(stored).toMatchObject({ direction: 'inbound', phone_number: '', user_id: userId, username: 'ann.doe', content: 'Hi' });
    expect(await contacts(ws)).toMatchObject([{ phone_number: '', user_id: userId, name: 'Ann' }]);

    // Their window is open under their user id: a reply goes in `recipient`, and its statuses (recipient_user_id, no recipient_id) move it.
    const reply = await send(ws, { to_user_id: userId, text: 'Hello Ann' });
    expect(reply.status).toBe(202);
    expect(reply.body.data).toMatchObject({ recipient: '', recipient_user_id: userId });
    await eventually(
      async () => (await api.call('GET', `/api/v1/messages/${reply.body.data.message_id}`, { key: ws.key })).body.data.status,
      (status) => status === 'read',
    );
    const [sent] = await simulator.sends(userId);
    expect(sent.request).toMatchObject({ recipient: userId, type: 'text' });
    expect(sent.request).not.toHaveProperty('to');

    const otp = await send(ws, { to_user_id: userId, template: 'login_code', variables: ['123456'] });
    expect(otp.status).toBe(422);
    expect(otp.body.error.code).toBe('phone_number_required');

    const contactId = (await contacts(ws))[0].id;
    const campaign = (await api.call('POST', '/api/v1/campaigns', { key: ws.key, body: { name: 'By id', template_name: 'order_update' } })).body.data;
    const launched = await api.call('POST', `/api/v1/campaigns/${campaign.id}/launch`, {
      key: ws.key,
      body: { contact_ids: [contactId], template_variables: ['{{name}}', 'B-2'] },
    });
    expect(launched.body.data).toMatchObject({ total_recipients: 1 });
    const done = await eventually(
      () => results(ws, campaign.id),
      (r) => r.status === 'completed',
    );
    expect(done.metrics).toMatchObject({ total_messages: 1, failed: 0 });
    const templateSends = (await simulator.sends(userId)).filter((s) => s.request.type === 'template');
    expect(templateSends).toHaveLength(1);
    expect(templateSends[0].request).toMatchObject({ recipient: userId, template: { name: 'order_update' } });
  });

  it('merges a number and a user id reported together into one customer: one contact, one window', async () => {
    const ws = await api.workspaceWithTemplates();
    const userId = 'BR.98765432109876543210';
    await inbound(ws, { user_id: userId, text: 'first' });
    await eventually(
      () => contacts(ws),
      (list) => list.length === 1,
    );
    // Later the platform reports their number with the same user id: the contact gains the number.
    await inbound(ws, { user_id: userId, from: '5511987654321', text: 'second' });
    const [contact] = await eventually(
      () => contacts(ws),
      (list) => list[0]?.phone_number === '5511987654321',
    );
    expect(contact.user_id).toBe(userId);
    expect(await contacts(ws)).toHaveLength(1);
    // One customer whichever id is used: the window opened by either message is theirs.
    expect((await send(ws, { to: '+55 11 98765-4321', text: 'By number' })).status).toBe(202);
    const byId = await send(ws, { to_user_id: userId, text: 'By id' });
    expect(byId.status).toBe(202);
    expect(byId.body.data.recipient).toBe('5511987654321');
    // …and an authentication template to them is possible once the number is known.
    expect((await send(ws, { to_user_id: userId, template: 'login_code', variables: ['654321'] })).status).toBe(202);
  });

  it('asks a customer known by user id for their number (request_contact_info), and merges the number they share into their contact', async () => {
    const ws = await api.workspaceWithTemplates();
    const userId = 'US.13491208655302741777';
    await inbound(ws, { user_id: userId, name: 'Ada' });
    await eventually(
      () => contacts(ws),
      (list) => list.length === 1,
    );
    const asked = await send(ws, { to_user_id: userId, interactive: { type: 'request_contact_info', body: 'May we have your number for delivery updates?' } });
    expect(asked.status).toBe(202);
    const [request] = await eventually(
      () => simulator.sends(userId),
      (list) => list.length === 1,
    );
    expect(request.request).toMatchObject({
      recipient: userId,
      type: 'interactive',
      interactive: { type: 'request_contact_info', action: { name: 'request_contact_info' }, body: { text: 'May we have your number for delivery updates?' } },
    });
    // The customer taps it: a contacts message whose card has origin contact_request and no vcard (docs/platform-identity.md §4).
    await inbound(ws, {
      user_id: userId,
      type: 'contacts',
      contacts: [{ origin: 'contact_request', phones: [{ phone: '+1 415-555-2477', wa_id: '14155552477', type: 'MOBILE' }] }],
    });
    const merged = await eventually(
      () => contacts(ws),
      (list) => list[0]?.phone_number === '14155552477',
    );
    expect(merged).toHaveLength(1);
    expect(merged[0]).toMatchObject({ user_id: userId, phone_number: '14155552477' });
  });

  it.each([
    ['both to and to_user_id', { to: '+14155552401', to_user_id: 'US.1234' }, 'to'],
    ['neither', {}, 'to'],
    ['a user id without its country code', { to_user_id: '13491208655302741918' }, 'to_user_id'],
    ['a user id with a lowercase country code', { to_user_id: 'us.13491208655302741918' }, 'to_user_id'],
    ['a user id with other characters', { to_user_id: 'US.1349-1208' }, 'to_user_id'],
  ])('refuses %s as a validation error', async (_case, recipient, field) => {
    const ws = await api.workspace();
    const reply = await send(ws, { ...recipient, text: 'Hi' });
    expect(reply.status).toBe(400);
    expect(reply.body.error.code).toBe('validation_error');
    expect(reply.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
  });
});
