import { BUDGET_SHARDS } from '#shared/data/campaign-budget';
import { DEFAULT_RATE_CARD } from '#shared/domain/pricing/default-rate-card';
import { fromUnits, toUnits } from '#shared/domain/pricing/money';
import { useTestApi, type TestWorkspace } from '../support/api';
import { simulatorControl } from '../support/simulator';
import { eventually } from '../support/wait';

/** What messages cost, on the local stack (contract §20, docs/pricing.md): estimates, billed costs, budgets. */
const api = useTestApi({ runtime: true, statusIntervalMs: 20 });
const simulator = simulatorControl(() => api.simulator.url);

let probeScale: string | undefined;
beforeAll(() => {
  probeScale = process.env.PAUSE_PROBE_SCALE;
  process.env.PAUSE_PROBE_SCALE = '0.01'; // a message waiting for a resume looks again every second, not every minute
});
afterAll(() => {
  if (probeScale === undefined) delete process.env.PAUSE_PROBE_SCALE;
  else process.env.PAUSE_PROBE_SCALE = probeScale;
});

const call = (ws: TestWorkspace, method: string, path: string, body?: unknown) => api.call(method, path, { key: ws.key, ...(body !== undefined && { body }) });
const results = async (ws: TestWorkspace, id: string) => (await call(ws, 'GET', `/api/v1/campaigns/${id}/results`)).body.data;
const marketingRate = (callingCode: string) => toUnits(DEFAULT_RATE_CARD.markets[callingCode]?.marketing ?? DEFAULT_RATE_CARD.default.marketing!);

/** Distinct mobile numbers of a market that the simulator neither fails (…9999) nor prices free (…7777). */
const numbers = (prefix: string, count: number, offset = 0) => Array.from({ length: count }, (_, i) => `${prefix}${String(100_000 + offset + i)}`);
/** The campaign's messages, every page. */
async function campaignMessages(ws: TestWorkspace, id: string) {
  const all: { phone_number: string; status: string; cost: { amount: string } | null }[] = [];
  for (let page = 1; ; page++) {
    const reply = await call(ws, 'GET', `/api/v1/messages?campaign_id=${id}&pageSize=100&page=${page}`);
    all.push(...reply.body.data);
    if (reply.body.data.length < 100) return all;
  }
}
const sendsTo = async (phones: string[]) => Promise.all(phones.map(async (phone) => (await simulator.sends(phone)).length));

describe('a campaign across three markets (contract §20, issue 28 "Done when")', () => {
  it('estimates the card prices before launch; once completed, billed is the sum of its messages costs and the usage total', async () => {
    const ws = await api.workspaceWithTemplates();
    // India, Brazil, Germany: 200 recipients of a MARKETING template.
    const markets = { '91': numbers('919876', 80), '55': numbers('5511987', 70), '49': numbers('4915123', 50) };
    const phones = Object.values(markets).flat();
    const campaign = (await call(ws, 'POST', '/api/v1/campaigns', { name: 'Three markets', template_name: 'welcome' })).body.data;
    const body = { recipients: phones.map((phone) => ({ phone })), template_variables: ['Ada'] };

    const estimate = await call(ws, 'POST', `/api/v1/campaigns/${campaign.id}/estimate`, body);
    expect(estimate.status).toBe(200);
    const expected = Object.entries({ IN: '91', BR: '55', DE: '49' })
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([country, code]) => {
        const count = markets[code as keyof typeof markets].length;
        return { country, recipients: count, rate: fromUnits(marketingRate(code)), amount: fromUnits(marketingRate(code) * count) };
      });
    const total = fromUnits(expected.reduce((sum, { amount }) => sum + toUnits(amount), 0));
    expect(estimate.body.data).toEqual({ currency: 'USD', total, recipients: 200, by_country: expected, excluded_opted_out: 0 });

    expect((await call(ws, 'POST', `/api/v1/campaigns/${campaign.id}/launch`, body)).status).toBe(202);
    const done = await eventually(
      () => results(ws, campaign.id),
      (r) => r.status === 'completed' && r.metrics.read === 200 && r.cost.billed === total,
      180_000,
    );
    expect(done.cost).toEqual({ currency: 'USD', estimated: total, billed: total });
    const messages = await campaignMessages(ws, campaign.id);
    expect(messages).toHaveLength(200);
    expect(fromUnits(messages.reduce((sum, m) => sum + toUnits(m.cost!.amount), 0))).toBe(done.cost.billed);
    const usage = await eventually(
      async () => (await call(ws, 'GET', '/api/v1/usage?days=1')).body.data.cost,
      (cost) => cost.total === total,
    );
    expect(usage.by_category).toEqual({ marketing: total });
  }, 240_000);

  it('prices a service reply inside the customer service window as its reported type says', async () => {
    const ws = await api.workspaceWithTemplates();
    const customer = '919876500001';
    await simulator.inbound({ phone_number_id: ws.phoneNumberId, from: customer, text: 'Where is my order?' });
    await eventually(
      async () => (await call(ws, 'GET', '/api/v1/messages?direction=inbound')).body.data,
      (inbound) => inbound.length === 1,
    );
    const reply = await call(ws, 'POST', '/api/v1/messages', { to: customer, text: 'On its way!' });
    expect(reply.status).toBe(202);
    const priced = await eventually(
      async () => (await call(ws, 'GET', `/api/v1/messages/${reply.body.data.message_id}`)).body.data,
      (message) => message.cost !== null,
    );
    // The platform's free tier of service messages: `free_customer_service`, so it costs nothing, whatever the card's service price.
    expect(priced.pricing).toEqual(expect.objectContaining({ pricing_model: 'PMP', category: 'service', type: 'free_customer_service' }));
    expect(priced.cost).toEqual(expect.objectContaining({ amount: '0.0000', currency: 'USD' }));
  }, 60_000);
});

describe('budgets (contract §20)', () => {
  it('refuses a max_cost of 0, negative or not a number (400), and keeps a valid one as a decimal string', async () => {
    const ws = await api.workspaceWithTemplates();
    for (const max_cost of ['0', 0, '0.0000', -5, '-5', 'ten', '1.23456', null, true]) {
      const reply = await call(ws, 'POST', '/api/v1/campaigns', { name: 'Budget', template_name: 'welcome', max_cost });
      expect(reply.status).toBe(400);
      expect(reply.body.error.details.map((d: { field: string }) => d.field)).toEqual(['max_cost']);
    }
    const created = await call(ws, 'POST', '/api/v1/campaigns', { name: 'Budget', template_name: 'welcome', max_cost: 12.5 });
    expect(created.status).toBe(201);
    expect(created.body.data.max_cost).toBe('12.5000');
    // Not paused by its budget: nothing to resume.
    const resume = await call(ws, 'POST', `/api/v1/campaigns/${created.body.data.id}/resume`, { max_cost: '20' });
    expect(resume.status).toBe(409);
    expect(resume.body.error.code).toBe('invalid_state');
  });

  it('pauses at its budget within the stated overshoot, messages waiting queued; resumed with a higher one it completes, each recipient sent once', async () => {
    const ws = await api.workspaceWithTemplates();
    const phones = numbers('919812', 60);
    const rate = marketingRate('91');
    const budget = 30 * rate; // about half the audience
    const campaign = (await call(ws, 'POST', '/api/v1/campaigns', { name: 'Capped', template_name: 'welcome', max_cost: fromUnits(budget) })).body.data;
    expect(
      (await call(ws, 'POST', `/api/v1/campaigns/${campaign.id}/launch`, { recipients: phones.map((phone) => ({ phone })), template_variables: ['Ada'] }))
        .status,
    ).toBe(202);

    const paused = await eventually(
      () => results(ws, campaign.id),
      (r) => r.paused_reason?.code === 'budget_reached',
      60_000,
    );
    expect(paused.status).toBe('running');
    // What went before the pause has been reported read; the rest waits queued.
    const settled = await eventually(
      async () => ({ sends: (await sendsTo(phones)).reduce((sum, n) => sum + n, 0), metrics: (await results(ws, campaign.id)).metrics }),
      ({ sends, metrics }) => metrics.read === sends && metrics.pending === 60 - sends,
    );
    const sent = settled.sends;
    // The bound of docs/pricing.md §6: at most BUDGET_SHARDS - 1 messages' estimates over it.
    expect(sent).toBeGreaterThanOrEqual(30);
    expect(sent).toBeLessThanOrEqual(30 + BUDGET_SHARDS - 1);
    const billed = await eventually(
      () => results(ws, campaign.id),
      (r) => r.cost.billed === fromUnits(sent * rate),
    );
    expect(toUnits(billed.cost.billed)).toBeLessThanOrEqual(budget + (BUDGET_SHARDS - 1) * rate);
    // The others wait queued, and nothing more goes while it is paused.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const waiting = await results(ws, campaign.id);
    expect(waiting.metrics).toEqual(expect.objectContaining({ pending: 60 - sent, total_messages: 60 }));
    expect((await sendsTo(phones)).reduce((sum, n) => sum + n, 0)).toBe(sent);

    // A budget that leaves no room above what it has cost: 422.
    const low = await call(ws, 'POST', `/api/v1/campaigns/${campaign.id}/resume`, { max_cost: billed.cost.billed });
    expect(low.status).toBe(422);
    expect(low.body.error).toEqual(expect.objectContaining({ code: 'validation_error', details: [expect.objectContaining({ field: 'max_cost' })] }));
    const resumed = await call(ws, 'POST', `/api/v1/campaigns/${campaign.id}/resume`, { max_cost: fromUnits(100 * rate) });
    expect(resumed.status).toBe(200);
    expect(resumed.body.data.max_cost).toBe(fromUnits(100 * rate));

    const done = await eventually(
      () => results(ws, campaign.id),
      (r) => r.status === 'completed' && r.cost.billed === fromUnits(60 * rate),
      60_000,
    );
    expect(done.paused_reason).toBeNull();
    expect(done.metrics).toEqual(expect.objectContaining({ total_messages: 60, failed: 0 }));
    expect(await sendsTo(phones)).toEqual(phones.map(() => 1));
  }, 150_000);

  it('a cancel fails the messages waiting for a resume', async () => {
    const ws = await api.workspaceWithTemplates();
    const phones = numbers('5511976', 12);
    const rate = marketingRate('55');
    const campaign = (await call(ws, 'POST', '/api/v1/campaigns', { name: 'Cancelled', template_name: 'welcome' })).body.data;
    // The launch's budget replaces the campaign's (none here).
    const body = { recipients: phones.map((phone) => ({ phone })), template_variables: ['Ada'], max_cost: fromUnits(3 * rate) };
    expect((await call(ws, 'POST', `/api/v1/campaigns/${campaign.id}/launch`, body)).status).toBe(202);
    await eventually(
      () => results(ws, campaign.id),
      (r) => r.paused_reason?.code === 'budget_reached',
      60_000,
    );
    const { sends: sent } = await eventually(
      async () => ({ sends: (await sendsTo(phones)).reduce((sum, n) => sum + n, 0), metrics: (await results(ws, campaign.id)).metrics }),
      ({ sends, metrics }) => metrics.read === sends && metrics.pending === 12 - sends,
    );
    expect(sent).toBeGreaterThanOrEqual(3);
    expect(sent).toBeLessThanOrEqual(3 + BUDGET_SHARDS - 1);
    expect((await call(ws, 'POST', `/api/v1/campaigns/${campaign.id}/cancel`)).status).toBe(200);
    const cancelled = await eventually(
      () => results(ws, campaign.id),
      (r) => r.metrics.failed === 12 - sent,
      30_000,
    );
    expect(cancelled.failed_by_code).toEqual({ campaign_cancelled: 12 - sent });
    expect((await sendsTo(phones)).reduce((sum, n) => sum + n, 0)).toBe(sent);
  }, 90_000);
});
