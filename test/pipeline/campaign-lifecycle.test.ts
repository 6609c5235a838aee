import { useTestApi, type TestWorkspace } from '../support/api';
import { simulatorControl } from '../support/simulator';
import { eventually } from '../support/wait';

const api = useTestApi({ runtime: true, statusIntervalMs: 20 });
const simulator = simulatorControl(() => api.simulator.url);

const workspace = api.workspaceWithTemplates;
const create = (ws: TestWorkspace, body: Record<string, unknown> = {}) =>
  api.call('POST', '/api/v1/campaigns', { key: ws.key, body: { name: 'C', template_name: 'welcome', ...body } });
const launch = (ws: TestWorkspace, id: string, body: unknown, headers?: Record<string, string>) =>
  api.call('POST', `/api/v1/campaigns/${id}/launch`, { key: ws.key, body, headers });
const results = async (ws: TestWorkspace, id: string) => (await api.call('GET', `/api/v1/campaigns/${id}/results`, { key: ws.key })).body.data;
const sumOf = (m: Record<string, number>) => m.pending + m.sent + m.delivered + m.read + m.failed;

describe('campaign lifecycle', () => {
  it('gates scheduling by plan and refuses past or malformed times', async () => {
    const starter = await workspace('starter');
    const future = new Date(Date.now() + 3600_000).toISOString();
    const gated = await create(starter, { scheduled_at: future });
    expect(gated.status).toBe(403);
    expect(gated.body.error.code).toBe('plan_upgrade_required');
    expect((await create(starter)).status).toBe(201);

    const growth = await workspace('growth');
    expect((await create(growth, { scheduled_at: future })).status).toBe(201);
    for (const scheduled_at of [new Date(Date.now() - 60_000).toISOString(), 'tomorrow', '2026-13-45T99:00:00Z', 42]) {
      const reply = await create(growth, { scheduled_at });
      expect(reply.status).toBe(400);
      expect(reply.body.error.details.map((d: { field: string }) => d.field)).toEqual(['scheduled_at']);
    }
  });

  it('starts a scheduled campaign at its time', async () => {
    const ws = await workspace();
    const at = new Date(Date.now() + 2500).toISOString();
    const campaign = (await create(ws, { scheduled_at: at })).body.data;
    const reply = await launch(ws, campaign.id, { recipients: [{ phone: '+14155551101', variables: ['Sched'] }] });
    expect(reply.status).toBe(202);
    expect(reply.body.data.status).toBe('scheduled');
    expect((await results(ws, campaign.id)).metrics.total_messages).toBe(0);
    const done = await eventually(
      () => results(ws, campaign.id),
      (r) => r.status === 'completed',
      20_000,
    );
    expect(Date.parse(done.started_at)).toBeGreaterThanOrEqual(Date.parse(at) - 1000);
    expect(done.metrics.total_messages).toBe(1);
  });

  it('cancels a scheduled campaign: it never starts', async () => {
    const ws = await workspace();
    const campaign = (await create(ws, { scheduled_at: new Date(Date.now() + 1500).toISOString() })).body.data;
    await launch(ws, campaign.id, { recipients: [{ phone: '+14155551102', variables: ['x'] }] });
    const cancelled = await api.call('POST', `/api/v1/campaigns/${campaign.id}/cancel`, { key: ws.key });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data.status).toBe('cancelled');
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const after = await results(ws, campaign.id);
    expect(after.status).toBe('cancelled');
    expect(after.metrics.total_messages).toBe(0);
    expect(await simulator.sends('14155551102')).toHaveLength(0);
  });

  it('cancels a running campaign: unsent messages fail with campaign_cancelled; metrics always sum to the total', async () => {
    const ws = await workspace();
    await simulator.faults({ no_webhooks: true });
    const before = process.env.SEND_RATE_PER_SECOND;
    process.env.SEND_RATE_PER_SECOND = '5'; // slow sending down so the cancel lands mid-way
    try {
      const campaign = (await create(ws)).body.data;
      await launch(ws, campaign.id, { recipients: Array.from({ length: 60 }, (_, i) => ({ phone: `+1415555${1200 + i}`, variables: [`R${i}`] })) });
      await eventually(
        () => results(ws, campaign.id),
        (r) => r.metrics.sent > 0,
      );
      const cancelled = await api.call('POST', `/api/v1/campaigns/${campaign.id}/cancel`, { key: ws.key });
      expect(cancelled.body.data.status).toBe('cancelled');
      const settled = await eventually(
        async () => {
          const r = await results(ws, campaign.id);
          expect(sumOf(r.metrics)).toBe(r.metrics.total_messages);
          return r;
        },
        (r) => r.metrics.pending === 0,
        60_000,
      );
      expect(settled.status).toBe('cancelled');
      expect(settled.metrics.failed).toBeGreaterThan(0);
      expect(settled.metrics.sent + settled.metrics.failed).toBe(settled.metrics.total_messages);
      const failed = (await api.call('GET', `/api/v1/messages?campaign_id=${campaign.id}&status=failed&pageSize=1`, { key: ws.key })).body.data[0];
      expect((await api.call('GET', `/api/v1/messages/${failed.id}`, { key: ws.key })).body.data.error).toMatchObject({ code: 'campaign_cancelled' });
      expect((await api.call('POST', `/api/v1/campaigns/${campaign.id}/cancel`, { key: ws.key })).status).toBe(409);
    } finally {
      process.env.SEND_RATE_PER_SECOND = before;
      await simulator.resetFaults();
    }
  }, 90_000);

  it('replays a launch with the same Idempotency-Key and refuses a second launch', async () => {
    const ws = await workspace();
    const campaign = (await create(ws)).body.data;
    const body = { recipients: [{ phone: '+14155551301', variables: ['a'] }] };
    const first = await launch(ws, campaign.id, body, { 'Idempotency-Key': 'launch-1' });
    const replay = await launch(ws, campaign.id, body, { 'Idempotency-Key': 'launch-1' });
    expect(replay.status).toBe(202);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.data).toEqual(first.body.data);
    const again = await launch(ws, campaign.id, body);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('invalid_state');
  });

  describe('bad launches leave the campaign draft', () => {
    let ws: TestWorkspace;
    let campaignId: string;
    beforeAll(async () => {
      ws = await workspace();
      campaignId = (await create(ws)).body.data.id;
    });
    const unknown = '01900000-0000-7000-8000-0000000000aa';
    const cases: [string, unknown, number, string, string[]?][] = [
      ['no audience at all', {}, 400, 'validation_error', ['recipients']],
      ['only empty lists', { recipients: [], group_ids: [], contact_ids: [] }, 400, 'validation_error', ['recipients']],
      ['a malformed recipient phone', { recipients: [{ phone: '+1415' }] }, 400, 'validation_error', ['recipients.0.phone']],
      ['a recipient of wrong type', { recipients: ['+14155551401'] }, 400, 'validation_error', ['recipients.0']],
      ['10,001 recipients', { recipients: Array.from({ length: 10_001 }, () => ({ phone: '+14155551401' })) }, 400, 'validation_error', ['recipients']],
      ['an unknown macro', { recipients: [{ phone: '+14155551401', variables: ['{{email}}'] }] }, 400, 'validation_error', ['recipients.0.variables']],
      ['unknown contact ids', { contact_ids: [unknown] }, 422, 'invalid_audience', ['contact_ids.0']],
      ['unknown group ids', { group_ids: [unknown] }, 422, 'invalid_audience', ['group_ids.0']],
      ['a variable count that does not fit', { recipients: [{ phone: '+14155551401', variables: ['a', 'b'] }] }, 422, 'template_variables_mismatch'],
      ['missing template variables', { recipients: [{ phone: '+14155551401' }] }, 422, 'template_variables_mismatch'],
    ];
    it.each(cases)('%s', async (...[, body, status, code, fields]) => {
      const reply = await launch(ws, campaignId, body);
      expect(reply.status).toBe(status);
      expect(reply.body.error.code).toBe(code);
      if (fields) expect(reply.body.error.details.map((d: { field: string }) => d.field)).toEqual(fields);
      expect((await results(ws, campaignId)).status).toBe('draft');
    });

    it('an empty group resolves to an empty audience', async () => {
      const group = (await api.call('POST', '/api/v1/groups', { key: ws.key, body: { name: 'empty' } })).body.data;
      const reply = await launch(ws, campaignId, { group_ids: [group.id], template_variables: ['x'] });
      expect(reply.status).toBe(422);
      expect(reply.body.error.code).toBe('empty_audience');
      expect((await results(ws, campaignId)).status).toBe('draft');
    });

    it('unknown campaigns are 404, in every workspace but their own', async () => {
      expect((await launch(ws, unknown, { recipients: [{ phone: '+14155551401', variables: ['a'] }] })).status).toBe(404);
      const other = await workspace();
      expect((await api.call('GET', `/api/v1/campaigns/${campaignId}`, { key: other.key })).status).toBe(404);
      expect((await api.call('POST', `/api/v1/campaigns/${campaignId}/cancel`, { key: other.key })).status).toBe(404);
    });
  });
});
