import { completeIfDone } from '#shared/domain/campaigns/completion';
import { fanOutChunk } from '#shared/domain/campaigns/fanout';
import { useTestApi, type TestWorkspace } from '../support/api';
import { simulatorControl } from '../support/simulator';
import { eventually } from '../support/wait';

const api = useTestApi({ runtime: true, statusIntervalMs: 20 });
const simulator = simulatorControl(() => api.simulator.url);

const workspace = api.workspaceWithTemplates;
const createCampaign = async (ws: TestWorkspace, body: Record<string, unknown> = {}) =>
  (await api.call('POST', '/api/v1/campaigns', { key: ws.key, body: { name: 'Spring', template_name: 'order_update', ...body } })).body.data;
const launch = (ws: TestWorkspace, id: string, body: unknown, headers?: Record<string, string>) =>
  api.call('POST', `/api/v1/campaigns/${id}/launch`, { key: ws.key, body, headers });
const results = async (ws: TestWorkspace, id: string) => (await api.call('GET', `/api/v1/campaigns/${id}/results`, { key: ws.key })).body.data;
/** 510 messages on a runner shared with other suites can take well over 30 s: the test is about how many, not how fast. */
const completed = (ws: TestWorkspace, id: string, timeoutMs = 30_000) =>
  eventually(
    () => results(ws, id),
    (r) => r.status === 'completed',
    timeoutMs,
  );

describe('campaigns', () => {
  it('creates a draft tied to an approved template', async () => {
    const ws = await workspace();
    const reply = await api.call('POST', '/api/v1/campaigns', { key: ws.key, body: { name: 'Launch', template_name: 'welcome' } });
    expect(reply.status).toBe(201);
    expect(reply.body.data).toMatchObject({
      id: expect.any(String),
      name: 'Launch',
      template_id: expect.stringMatching(/^\d+$/),
      template_name: 'welcome',
      status: 'draft',
      scheduled_at: null,
    });
    const byId = await api.call('POST', '/api/v1/campaigns', { key: ws.key, body: { name: 'By id', template_id: reply.body.data.template_id } });
    expect(byId.body.data.template_name).toBe('welcome');
    const pending = await api.call('POST', '/api/v1/campaigns', { key: ws.key, body: { name: 'x', template_name: 'spring_sale' } });
    expect(pending.body.error.code).toBe('template_not_approved');
    const list = await api.call('GET', '/api/v1/campaigns', { key: ws.key });
    expect(list.body.data.map((c: { name: string }) => c.name)).toEqual(['By id', 'Launch']);
    expect(list.body.pagination.totalCount).toBe(2);
  });

  it('de-duplicates by phone across sources with the contract precedence, fills macros, and completes with exact metrics', async () => {
    const ws = await workspace();
    const c1 = (await api.call('POST', '/api/v1/contacts', { key: ws.key, body: { phone_number: '+14155551001', name: 'Contact One' } })).body.data;
    const c2 = (await api.call('POST', '/api/v1/contacts', { key: ws.key, body: { phone_number: '+14155551002', name: 'Contact Two' } })).body.data;
    const c3 = (await api.call('POST', '/api/v1/contacts', { key: ws.key, body: { phone_number: '+14155551003', name: 'Member Three' } })).body.data;
    const group = (await api.call('POST', '/api/v1/groups', { key: ws.key, body: { name: 'g' } })).body.data;
    await api.call('POST', `/api/v1/groups/${group.id}/contacts`, { key: ws.key, body: { contact_ids: [c2.id, c3.id] } });
    const campaign = await createCampaign(ws);

    const reply = await launch(ws, campaign.id, {
      recipients: [
        { phone: '+1 415 555 1001', name: 'Direct', variables: ['{{name}}', 'D-1'] },
        { phone: '+14155559999', variables: { 1: 'Fail', 2: '{{phone}}' } },
      ],
      contact_ids: [c1.id, c2.id],
      group_ids: [group.id],
      template_variables: { 1: '{{name}}', 2: 'for {{phone}}' },
    });
    expect(reply.status).toBe(202);
    expect(reply.body.data).toMatchObject({ campaign_id: campaign.id, name: 'Spring', status: 'running', queued_at: expect.any(String), total_recipients: 4 });

    // Completed once no message is queued; reads keep arriving after that.
    const done = await completed(ws, campaign.id);
    expect(done.metrics.pending).toBe(0);
    // Exactly once: later attempts (the last reports, racing workers) complete nothing again.
    expect(await Promise.all(Array.from({ length: 5 }, () => completeIfDone(ws.id, campaign.id)))).toEqual([false, false, false, false, false]);
    expect((await results(ws, campaign.id)).completed_at).toBe(done.completed_at);
    const { metrics } = await eventually(
      () => results(ws, campaign.id),
      (r) => r.metrics.read === 3,
    );
    expect(metrics).toEqual({ total_messages: 4, pending: 0, sent: 0, delivered: 0, read: 3, failed: 1, delivered_rate_pct: 75, read_rate_pct: 75 });
    expect(done.started_at).toEqual(expect.any(String));
    expect(done.completed_at).toEqual(expect.any(String));

    const contents = await Promise.all(
      (await api.call('GET', `/api/v1/messages?campaign_id=${campaign.id}`, { key: ws.key })).body.data.map(
        async (m: { id: string }) => (await api.call('GET', `/api/v1/messages/${m.id}`, { key: ws.key })).body.data,
      ),
    );
    expect(contents.map((m) => `${m.phone_number}: ${m.content}`).sort()).toEqual([
      '14155551001: Hi Direct, your order D-1 has shipped.',
      '14155551002: Hi Contact Two, your order for 14155551002 has shipped.',
      '14155551003: Hi Member Three, your order for 14155551003 has shipped.',
      '14155559999: Hi Fail, your order 14155559999 has shipped.',
    ]);
    expect((await api.call('GET', `/api/v1/messages?campaign_id=${campaign.id}&status=read`, { key: ws.key })).body.pagination.totalCount).toBe(3);
  });

  it('creates exactly one message per recipient when fan-out jobs are delivered twice', async () => {
    const ws = await workspace();
    await simulator.faults({ no_webhooks: true });
    try {
      const campaign = await createCampaign(ws, { template_name: 'hello_world' });
      // 510 recipients: two audience chunks, so the continuation job runs too.
      const recipients = Array.from({ length: 510 }, (_, i) => ({ phone: `+1415556${String(1000 + i).padStart(4, '0')}` }));
      const reply = await launch(ws, campaign.id, { recipients });
      expect(reply.body.data.total_recipients).toBe(510);
      const full = await api.call('GET', `/api/v1/campaigns/${campaign.id}`, { key: ws.key });
      // Replay every chunk job while the real fan-out runs: a second job of the chunk, received twice at once, and received again later.
      const { launch_id } = (await import('#shared/domain/campaigns/lifecycle').then((m) => m.getCampaign(ws.id, campaign.id)))!;
      const replay = (chunk: number, receiveCount: number) =>
        fanOutChunk({ workspace_id: ws.id, campaign_id: campaign.id, launch_id: launch_id!, chunk }, { jobId: `replay-${chunk}`, receiveCount });
      await Promise.all([0, 1].flatMap((chunk) => [replay(chunk, 1), replay(chunk, 1)]));
      await Promise.all([0, 1].map((chunk) => replay(chunk, 2)));
      const done = await completed(ws, campaign.id, 100_000);
      expect(full.body.data.status).toBe('running');
      expect(done.metrics).toMatchObject({ total_messages: 510, sent: 510, pending: 0 });
      expect((await api.call('GET', `/api/v1/messages?campaign_id=${campaign.id}&pageSize=1`, { key: ws.key })).body.pagination.totalCount).toBe(510);
      expect(await simulator.sends('14155561000')).toHaveLength(1);
      expect(await simulator.sends('14155561509')).toHaveLength(1);
    } finally {
      await simulator.resetFaults();
    }
  }, 150_000);

  it("bills each delivered message once, by its market: the campaign's billed cost is the sum of its messages' and the usage's", async () => {
    const ws = await workspace();
    const campaign = await createCampaign(ws);
    // order_update is UTILITY: North America 0.0034, Brazil 0.0068, Germany 0.0550 on the default card;
    // ...9999 fails after sent (not charged), ...7777 is in a free entry point window (free).
    const phones = ['+14155551101', '+14155551102', '+5511987651103', '+4915123451104', '+14155559999', '+14155557777'];
    const body = { recipients: phones.map((phone) => ({ phone })), template_variables: { 1: 'Ada', 2: 'A-1' } };
    // Before launch: the card's list prices for every recipient (what will be free cannot be known yet), nothing sent.
    const estimate = await api.call('POST', `/api/v1/campaigns/${campaign.id}/estimate`, { key: ws.key, body });
    expect(estimate.status).toBe(200);
    expect(estimate.body.data).toEqual({
      currency: 'USD',
      total: '0.0754',
      recipients: 6,
      by_country: [
        { country: 'BR', recipients: 1, rate: '0.0068', amount: '0.0068' },
        { country: 'DE', recipients: 1, rate: '0.0550', amount: '0.0550' },
        { country: 'US', recipients: 4, rate: '0.0034', amount: '0.0136' },
      ],
      excluded_opted_out: 0,
    });
    expect((await results(ws, campaign.id)).status).toBe('draft');
    const reply = await launch(ws, campaign.id, body);
    expect(reply.status).toBe(202);
    expect((await results(ws, campaign.id)).cost).toEqual({ currency: 'USD', estimated: '0.0754', billed: '0.0000' });
    const done = await eventually(
      () => results(ws, campaign.id),
      (r) => r.status === 'completed' && r.metrics.read === 5 && r.cost.billed === '0.0686',
    );
    expect(done.cost).toEqual({ currency: 'USD', estimated: '0.0754', billed: '0.0686' });
    const messages = (await api.call('GET', `/api/v1/messages?campaign_id=${campaign.id}&limit=100`, { key: ws.key })).body.data;
    const costs = Object.fromEntries(messages.map((m: { phone_number: string; cost: { amount: string } | null }) => [m.phone_number, m.cost?.amount ?? null]));
    expect(costs).toEqual({
      '14155551101': '0.0034',
      '14155551102': '0.0034',
      '5511987651103': '0.0068',
      '4915123451104': '0.0550',
      '14155559999': null,
      '14155557777': '0.0000',
    });
    const usage = await eventually(
      async () => (await api.call('GET', '/api/v1/usage?days=1', { key: ws.key })).body.data.cost,
      (cost) => cost.total === '0.0686',
    );
    expect(usage).toEqual({ currency: 'USD', total: '0.0686', by_category: { utility: '0.0686' }, by_country: { BR: '0.0068', DE: '0.0550', US: '0.0068' } });
  }, 60_000);
});
