/** Retry of a completed campaign's transient failures (contract §15), with the simulator's `fail_status`. */
import { useTestApi, type TestWorkspace } from '../support/api';
import { simulatorControl } from '../support/simulator';
import { eventually } from '../support/wait';

const api = useTestApi({ runtime: true, statusIntervalMs: 20 });
const simulator = simulatorControl(() => api.simulator.url);
afterEach(() => simulator.resetFaults());

type Data = Record<string, any>;

const RECIPIENTS = 24;
const phoneOf = (i: number) => `1415559${String(3000 + i)}`;

const createCampaign = async (ws: TestWorkspace) =>
  (await api.call('POST', '/api/v1/campaigns', { key: ws.key, body: { name: 'Retried', template_name: 'welcome' } })).body.data;
const retry = (ws: TestWorkspace, id: string, key?: string) =>
  api.call('POST', `/api/v1/campaigns/${id}/retry`, { key: ws.key, ...(key && { headers: { 'Idempotency-Key': key } }) });
const results = async (ws: TestWorkspace, id: string): Promise<Data> => (await api.call('GET', `/api/v1/campaigns/${id}/results`, { key: ws.key })).body.data;
/** Completed, and every message final (read, or failed): a failure can be reported after `sent`, so after the completion. */
const settled = (ws: TestWorkspace, id: string) =>
  eventually(
    () => results(ws, id),
    (r) => r.status === 'completed' && r.metrics.read + r.metrics.failed === RECIPIENTS + 1,
    60_000,
  );

/** Every message of the campaign, with its detail (for `retry_of` and `error`). */
async function campaignMessages(ws: TestWorkspace, id: string): Promise<{ list: Data; messages: Data[] }> {
  const list = (await api.call('GET', `/api/v1/messages?campaign_id=${id}&pageSize=100`, { key: ws.key })).body;
  const messages = await Promise.all(list.data.map(async (m: Data) => (await api.call('GET', `/api/v1/messages/${m.id}`, { key: ws.key })).body.data));
  return { list, messages };
}

describe('POST /api/v1/campaigns/{id}/retry', () => {
  it('re-sends exactly the recipients that failed with 131049, once, and counts every recipient once by its latest message', async () => {
    const ws = await api.workspaceWithTemplates();
    // An opted-out contact: failed `recipient_opted_out`, a cause a retry does not pass.
    const optedOut = (await api.call('POST', '/api/v1/contacts', { key: ws.key, body: { phone_number: '+14155594999', name: 'Out' } })).body.data;
    await api.call('PATCH', `/api/v1/contacts/${optedOut.id}`, { key: ws.key, body: { opted_out: true } });
    const campaign = await createCampaign(ws);
    await simulator.faults({ fail_status: { code: 131049, share: 0.5 } });
    const recipients = [...Array.from({ length: RECIPIENTS }, (_, i) => ({ phone: `+${phoneOf(i)}` })), { phone: '+14155594999' }];
    expect(
      (await api.call('POST', `/api/v1/campaigns/${campaign.id}/launch`, { key: ws.key, body: { recipients, template_variables: ['friend'] } })).status,
    ).toBe(202);

    const first = await settled(ws, campaign.id);
    const limited = first.failed_by_code['131049'];
    expect(limited).toBeGreaterThan(0);
    expect(first.failed_by_code).toEqual({ '131049': limited, recipient_opted_out: 1 });
    expect(first.metrics).toMatchObject({ total_messages: RECIPIENTS + 1, pending: 0, failed: limited + 1 });
    const failedBefore = (await campaignMessages(ws, campaign.id)).messages.filter((m) => m.error?.code === 131049);
    expect(failedBefore).toHaveLength(limited);

    await simulator.resetFaults();
    const reply = await retry(ws, campaign.id, 'retry-once');
    expect(reply.status).toBe(202);
    expect(reply.body.data).toEqual({ campaign_id: campaign.id, status: 'running', retried_count: limited, skipped_count: 1 });
    // The same key answers the same and creates nothing more; without one, the running campaign refuses.
    const again = await retry(ws, campaign.id, 'retry-once');
    expect([again.status, again.body.data]).toEqual([202, reply.body.data]);
    expect((await retry(ws, campaign.id)).body.error.code).toBe('invalid_state');

    const second = await settled(ws, campaign.id);
    expect(second.metrics).toMatchObject({ total_messages: RECIPIENTS + 1, pending: 0, failed: 1 });
    expect(second.metrics.sent + second.metrics.delivered + second.metrics.read).toBe(RECIPIENTS);
    expect(second.failed_by_code).toEqual({ recipient_opted_out: 1 });

    const { list, messages } = await campaignMessages(ws, campaign.id);
    // The list holds the failed messages and their retries.
    expect(list.pagination.totalCount).toBe(RECIPIENTS + 1 + limited);
    const retries = messages.filter((m) => m.retry_of);
    expect(retries.map((m) => m.retry_of).sort()).toEqual(failedBefore.map((m) => m.id).sort());
    expect(retries.every((m) => m.campaign_id === campaign.id && m.content === 'Welcome to our service, friend!')).toBe(true);
    // Each limited recipient got exactly two platform requests (the failed one and its retry), every other exactly one.
    const limitedPhones = new Set(failedBefore.map((m) => m.phone_number));
    for (let i = 0; i < RECIPIENTS; i++) expect(await simulator.sends(phoneOf(i))).toHaveLength(limitedPhones.has(phoneOf(i)) ? 2 : 1);
    expect(await simulator.sends('14155594999')).toHaveLength(0);

    const nothing = await retry(ws, campaign.id);
    expect([nothing.status, nothing.body.error.code]).toEqual([422, 'nothing_to_retry']);
  }, 150_000);

  it('refuses a campaign that is not completed: draft, running or cancelled', async () => {
    const ws = await api.workspaceWithTemplates();
    const campaign = await createCampaign(ws);
    expect((await retry(ws, campaign.id)).body.error.code).toBe('invalid_state');
    await api.call('POST', `/api/v1/campaigns/${campaign.id}/cancel`, { key: ws.key });
    const cancelled = await retry(ws, campaign.id);
    expect([cancelled.status, cancelled.body.error.code]).toEqual([409, 'invalid_state']);
    expect((await retry(ws, '0190a0e0-0000-7000-8000-000000000000')).status).toBe(404);
  });
});
