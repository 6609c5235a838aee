import { PutCommand } from '@aws-sdk/lib-dynamodb';
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
