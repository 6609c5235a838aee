/** Send windows on the local stack (contract §15): a closed window holds the campaign, its schedule resumes it at the start. */
import { useTestApi, type TestWorkspace } from '../support/api';
import { simulatorControl } from '../support/simulator';
import { eventually } from '../support/wait';

const api = useTestApi({ runtime: true, statusIntervalMs: 20 });
const simulator = simulatorControl(() => api.simulator.url);

type Data = Record<string, any>;

const EVERY_DAY = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
const hhmm = (ms: number) => new Date(ms).toISOString().slice(11, 16);
const createCampaign = (ws: TestWorkspace, body: Data) =>
  api.call('POST', '/api/v1/campaigns', { key: ws.key, body: { name: 'Windowed', template_name: 'welcome', ...body } });
const launch = (ws: TestWorkspace, id: string, body: Data) => api.call('POST', `/api/v1/campaigns/${id}/launch`, { key: ws.key, body });
const results = async (ws: TestWorkspace, id: string): Promise<Data> => (await api.call('GET', `/api/v1/campaigns/${id}/results`, { key: ws.key })).body.data;
const messageTo = async (ws: TestWorkspace, campaignId: string, phone: string): Promise<Data> => {
  const [entry] = (await api.call('GET', `/api/v1/messages?campaign_id=${campaignId}&phone=${phone}`, { key: ws.key })).body.data;
  return (await api.call('GET', `/api/v1/messages/${entry.id}`, { key: ws.key })).body.data;
};

describe('send_window', () => {
  it('holds a campaign launched outside its window, resumes it at the start, and keeps a contact in another zone waiting for its own', async () => {
    const ws = await api.workspaceWithTemplates();
    const contacts = [
      { phone: '+14155596001', name: 'Ada' },
      { phone: '+14155596002', name: 'Bo' },
      // Kathmandu is UTC+5:45: a window opening now in UTC opened there hours ago and has closed.
      { phone: '+14155596003', name: 'Kiran', custom_fields: { time_zone: 'Asia/Kathmandu' } },
    ];
    const imported = (await api.call('POST', '/api/v1/contacts/bulk', { key: ws.key, body: { contacts } })).body.data.contacts;

    // The window opens at the next whole minute at least 15 s away, in UTC, and lasts 10 minutes.
    const start = Math.ceil((Date.now() + 15_000) / 60_000) * 60_000;
    const window = { start: hhmm(start), end: hhmm(start + 10 * 60_000), days: EVERY_DAY, time_zone: 'UTC' };
    const created = await createCampaign(ws, { send_window: window });
    expect(created.status).toBe(201);
    expect(created.body.data.send_window).toEqual(window);
    // One number given directly (its contact's zone still applies), two contacts by id.
    const reply = await launch(ws, created.body.data.id, {
      recipients: [{ phone: '+14155596003' }],
      contact_ids: imported.filter((c: Data) => c.name !== 'Kiran').map((c: Data) => c.id),
      template_variables: ['{{name}}'],
    });
    expect(reply.status).toBe(202);
    const campaignId = created.body.data.id;

    const held = await results(ws, campaignId);
    expect(held).toMatchObject({ status: 'running', paused_until: new Date(start).toISOString() });
    expect(await simulator.sends('14155596001')).toHaveLength(0);

    // At the start the window's schedule hands the held messages on.
    for (const phone of ['14155596001', '14155596002']) {
      const [sent] = await eventually(
        () => simulator.sends(phone),
        (sends) => sends.length === 1,
        100_000,
      );
      expect(sent.request.to).toBe(phone);
      const message = await messageTo(ws, campaignId, phone);
      expect(Date.parse(message.metadata.sent_at)).toBeGreaterThanOrEqual(start);
    }
    const resumed = await eventually(
      () => results(ws, campaignId),
      (r) => r.metrics.pending === 1,
      15_000,
    );
    // Open in UTC, so not paused; Kiran's message waits for 09:… in Kathmandu.
    expect(resumed).toMatchObject({ status: 'running', paused_until: null });
    expect(await messageTo(ws, campaignId, '14155596003')).toMatchObject({ status: 'queued', metadata: { send_attempts: 0 } });
    expect(await simulator.sends('14155596003')).toHaveLength(0);
  }, 120_000);

  it('fails the messages a cancelled campaign held for its window, without waiting for the window', async () => {
    process.env.CANCELLED_RESUME_SECONDS = '2';
    const ws = await api.workspaceWithTemplates();
    // Closed now and for the next days: a window on the weekday three days ahead (getUTCDay counts from Sunday).
    const threeDaysAhead = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'][(new Date().getUTCDay() + 3) % 7];
    const window = { start: '09:00', end: '10:00', days: [threeDaysAhead], time_zone: 'UTC' };
    const created = (await createCampaign(ws, { send_window: window })).body.data;
    expect((await launch(ws, created.id, { recipients: [{ phone: '+14155596031', name: 'Held' }], template_variables: ['{{name}}'] })).status).toBe(202);
    expect((await results(ws, created.id)).paused_until).not.toBeNull();
    // Held once the fan-out has stored it.
    await eventually(
      () => results(ws, created.id),
      (r) => r.metrics.pending === 1,
      15_000,
    );
    expect((await api.call('POST', `/api/v1/campaigns/${created.id}/cancel`, { key: ws.key })).status).toBe(200);
    const message = await eventually(
      () => messageTo(ws, created.id, '14155596031'),
      (m) => m.status === 'failed',
      30_000,
    );
    expect(message.error.code).toBe('campaign_cancelled');
    expect(await simulator.sends('14155596031')).toEqual([]);
  });

  it("a window given at launch replaces the campaign's, and one open now sends at once", async () => {
    const ws = await api.workspaceWithTemplates();
    const closed = { start: '00:00', end: '00:01', days: ['mon'], time_zone: 'Pacific/Kiritimati' };
    const created = (await createCampaign(ws, { send_window: closed })).body.data;
    const open = { start: hhmm(Date.now() - 3_600_000), end: hhmm(Date.now() + 3_600_000), days: EVERY_DAY, time_zone: 'UTC' };
    expect(
      (await launch(ws, created.id, { recipients: [{ phone: '+14155596011', name: 'Now' }], template_variables: ['{{name}}'], send_window: open })).status,
    ).toBe(202);
    expect(
      await eventually(
        () => results(ws, created.id),
        (r) => r.status === 'completed',
        30_000,
      ),
    ).toMatchObject({ paused_until: null, metrics: { total_messages: 1, failed: 0 } });
    expect((await api.call('GET', `/api/v1/campaigns/${created.id}`, { key: ws.key })).body.data.send_window).toEqual(open);
  });

  it.each([
    ['an unknown time zone', { start: '09:00', end: '17:00', days: ['mon'], time_zone: 'Mars/Olympus_Mons' }, 'send_window.time_zone'],
    ['start equal to end', { start: '09:00', end: '09:00', days: ['mon'], time_zone: 'UTC' }, 'send_window.end'],
    ['empty days', { start: '09:00', end: '17:00', days: [], time_zone: 'UTC' }, 'send_window.days'],
    ['an unknown day', { start: '09:00', end: '17:00', days: ['someday'], time_zone: 'UTC' }, 'send_window.days.0'],
    ['a day twice', { start: '09:00', end: '17:00', days: ['mon', 'mon'], time_zone: 'UTC' }, 'send_window.days'],
    ['a time that is not HH:MM', { start: '9am', end: '17:00', days: ['mon'], time_zone: 'UTC' }, 'send_window.start'],
    ['24:00', { start: '09:00', end: '24:00', days: ['mon'], time_zone: 'UTC' }, 'send_window.end'],
    ['a misspelt field', { start: '09:00', end: '17:00', days: ['mon'], timezone: 'UTC' }, 'send_window.timezone'],
  ])('refuses %s with 400 validation_error, on create and on launch', async (_, window, field) => {
    const ws = await api.workspaceWithTemplates();
    const created = await createCampaign(ws, { send_window: window });
    expect([created.status, created.body.error.code]).toEqual([400, 'validation_error']);
    expect(created.body.error.details.map((d: Data) => d.field)).toContain(field);
    const draft = (await createCampaign(ws, {})).body.data;
    const launched = await launch(ws, draft.id, { recipients: [{ phone: '+14155596021' }], template_variables: ['x'], send_window: window });
    expect([launched.status, launched.body.error.details.map((d: Data) => d.field)]).toEqual([400, expect.arrayContaining([field])]);
    expect((await results(ws, draft.id)).status).toBe('draft');
  });
});
