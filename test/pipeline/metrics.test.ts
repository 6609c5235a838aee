import { setRateLimit } from '#shared/domain/workspaces';
import {
  BusinessMetric,
  CURRENCY_DIMENSION,
  ERROR_CODE_DIMENSION,
  METRICS_NAMESPACE,
  SERVICE_NAME,
  WORKSPACE_DIMENSION,
  type BusinessMetricName,
} from '#shared/metrics-catalog';
import { useTestApi, type TestWorkspace } from '../support/api';
import { startReceiver } from '../support/receiver';
import { simulatorControl } from '../support/simulator';
import { eventually } from '../support/wait';

process.env.SEND_BACKOFF_SCALE = '0.001';
const api = useTestApi({ runtime: true, statusIntervalMs: 20, metrics: true });
const simulator = simulatorControl(() => api.simulator.url);

/** What the functions print on stdout (Powertools prints EMF there), kept from the swallowed output; and what they print on stderr. */
const stdout: string[] = [];
const stderr: string[] = [];
beforeAll(() => {
  jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout.push(...String(chunk).split('\n').filter(Boolean));
    return true;
  });
  const writeErr = process.stderr.write.bind(process.stderr);
  jest.spyOn(process.stderr, 'write').mockImplementation(((chunk: string | Uint8Array, ...rest: never[]) => {
    stderr.push(String(chunk));
    return writeErr(chunk, ...rest);
  }) as typeof process.stderr.write);
});
afterAll(() => jest.restoreAllMocks());
beforeEach(() => {
  stdout.length = 0;
  stderr.length = 0;
});
afterEach(() => simulator.resetFaults());

interface Datapoint {
  namespace: string;
  name: string;
  unit: string;
  dimensions: Record<string, string>;
  value: number;
}

/** The EMF lines printed since the test began, as CloudWatch reads them: every metric of every directive under each of its dimension sets. */
function datapoints(): Datapoint[] {
  return stdout.flatMap((line) => {
    const emf = JSON.parse(line);
    return emf._aws.CloudWatchMetrics.flatMap((directive: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string; Unit: string }[] }) =>
      directive.Dimensions.flatMap((set) =>
        directive.Metrics.map(({ Name, Unit }) => ({
          namespace: directive.Namespace,
          name: Name,
          unit: Unit,
          dimensions: Object.fromEntries(set.map((dimension) => [dimension, emf[dimension]])),
          value: [emf[Name]].flat().reduce((sum: number, value: number) => sum + value, 0),
        })),
      ),
    );
  });
}

/** The Sum statistic CloudWatch would show for the metric with exactly these dimensions. */
const sum = (name: BusinessMetricName, dimensions: Record<string, string> = { service: SERVICE_NAME }) =>
  datapoints()
    .filter((point) => point.namespace === METRICS_NAMESPACE && point.name === name && JSON.stringify(point.dimensions) === JSON.stringify(dimensions))
    .reduce((total, point) => total + point.value, 0);

/** Every metric printed so far, by name, with its dimensions: only the ones the alarms and the dashboard expect, every one a count but the spend. */
function expectCatalogShape(): void {
  const ownDimensions: Partial<Record<BusinessMetricName, string[]>> = {
    [BusinessMetric.MessagesFailedByCode]: [ERROR_CODE_DIMENSION],
    [BusinessMetric.SpendBilled]: [WORKSPACE_DIMENSION, CURRENCY_DIMENSION],
  };
  for (const point of datapoints()) {
    expect(point).toMatchObject({ namespace: METRICS_NAMESPACE, unit: point.name === BusinessMetric.SpendBilled ? 'None' : 'Count' });
    expect(Object.values(BusinessMetric)).toContain(point.name);
    const expected = [['service', SERVICE_NAME], ...(ownDimensions[point.name as BusinessMetricName] ?? []).map((name) => [name, expect.any(String)])];
    expect(Object.entries(point.dimensions)).toEqual(expected);
  }
}

const status = async (ws: TestWorkspace, id: string) => (await api.call('GET', `/api/v1/messages/${id}`, { key: ws.key })).body.data?.status;
const until = (ws: TestWorkspace, id: string, wanted: string) =>
  eventually(
    () => status(ws, id),
    (current) => current === wanted,
    20_000,
  );
/** Waits for the metric to reach `value`: the stream functions print theirs when their batch ends. */
const sumReaches = (name: BusinessMetricName, value: number, dimensions?: Record<string, string>) =>
  eventually(
    async () => sum(name, dimensions),
    (total) => total >= value,
    20_000,
  );

describe('business metrics (EMF lines on stdout)', () => {
  it('prints nothing, not even a warning, for invocations that counted nothing', async () => {
    const ws = await api.workspace();
    // Something counted and printed first: the metrics exist, and are empty for what follows.
    await simulator.inbound({ phone_number_id: ws.phoneNumberId, from: '14155552000', text: 'Hello' });
    await sumReaches(BusinessMetric.InboundMessagesReceived, 1);
    stdout.length = 0;
    expect((await api.call('GET', '/health')).status).toBe(200);
    expect((await api.call('POST', '/api/v1/contacts', { key: ws.key, body: { phone_number: '+14155552001' } })).status).toBe(201);
    // The contact's stream records go through PublishEvents and the outbox meanwhile.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(stdout).toEqual([]);
    expect(stderr.join('')).not.toContain('No application metrics');
  });

  it('counts a message accepted once, however often its Idempotency-Key is replayed, and sent once', async () => {
    const ws = await api.workspaceWithTemplates();
    const send = () =>
      api.call('POST', '/api/v1/messages', { key: ws.key, body: { to: '+14155552002', template: 'hello_world' }, headers: { 'Idempotency-Key': 'metrics-1' } });
    const first = await send();
    const replay = await send();
    expect(replay.body.data.message_id).toBe(first.body.data.message_id);
    await until(ws, first.body.data.message_id, 'read');
    await sumReaches(BusinessMetric.MessagesSent, 1);
    expect(sum(BusinessMetric.MessagesAccepted)).toBe(1);
    expect(sum(BusinessMetric.MessagesSent)).toBe(1);
    expect(sum(BusinessMetric.MessagesFailed)).toBe(0);
    expect(sum(BusinessMetric.CampaignMessagesFannedOut)).toBe(0);
    // Billed once delivered: its cost, once, as its workspace's spend.
    const { cost } = (await api.call('GET', `/api/v1/messages/${first.body.data.message_id}`, { key: ws.key })).body.data;
    expect(Number(cost.amount)).toBeGreaterThan(0);
    const spendOf = { service: SERVICE_NAME, [WORKSPACE_DIMENSION]: ws.id, [CURRENCY_DIMENSION]: cost.currency };
    await sumReaches(BusinessMetric.SpendBilled, Number(cost.amount), spendOf);
    expect(sum(BusinessMetric.SpendBilled, spendOf)).toBe(Number(cost.amount));
    expectCatalogShape();
  });

  it('counts a platform 429 as throttled, and the message once sent after it', async () => {
    const ws = await api.workspaceWithTemplates();
    await simulator.faults({ fail_next: 1 });
    const reply = await api.call('POST', '/api/v1/messages', { key: ws.key, body: { to: '+14155552003', template: 'hello_world' } });
    await until(ws, reply.body.data.message_id, 'read');
    await sumReaches(BusinessMetric.MessagesSent, 1);
    expect(sum(BusinessMetric.PlatformThrottled)).toBe(1);
    expect(sum(BusinessMetric.MessagesSent)).toBe(1);
    expectCatalogShape();
  });

  it('counts a failed message in the total and under its error code', async () => {
    const ws = await api.workspaceWithTemplates();
    // The simulator sends to ...9999, then reports it failed with 131026.
    const reply = await api.call('POST', '/api/v1/messages', { key: ws.key, body: { to: '+14155559999', template: 'hello_world' } });
    await until(ws, reply.body.data.message_id, 'failed');
    await sumReaches(BusinessMetric.MessagesFailed, 1);
    await sumReaches(BusinessMetric.MessagesFailedByCode, 1, { service: SERVICE_NAME, [ERROR_CODE_DIMENSION]: '131026' });
    expect(sum(BusinessMetric.MessagesFailed)).toBe(1);
    expect(sum(BusinessMetric.MessagesFailedByCode, { service: SERVICE_NAME, [ERROR_CODE_DIMENSION]: '131026' })).toBe(1);
    // Only per code: the by-code metric has no series of its own without the code.
    expect(sum(BusinessMetric.MessagesFailedByCode)).toBe(0);
    expect(sum(BusinessMetric.MessagesSent)).toBe(1);
    expectCatalogShape();
  });

  it("counts a campaign's messages as fanned out, not as accepted", async () => {
    const ws = await api.workspaceWithTemplates();
    const campaign = (await api.call('POST', '/api/v1/campaigns', { key: ws.key, body: { name: 'Metrics', template_name: 'hello_world' } })).body.data;
    await api.call('POST', `/api/v1/campaigns/${campaign.id}/launch`, {
      key: ws.key,
      body: { recipients: [{ phone: '+14155552004' }, { phone: '+14155552005' }] },
    });
    await eventually(
      () => api.call('GET', `/api/v1/campaigns/${campaign.id}/results`, { key: ws.key }),
      (r) => r.body.data?.metrics?.read === 2,
      30_000,
    );
    await sumReaches(BusinessMetric.MessagesSent, 2);
    expect(sum(BusinessMetric.CampaignMessagesFannedOut)).toBe(2);
    expect(sum(BusinessMetric.MessagesAccepted)).toBe(0);
    expect(sum(BusinessMetric.MessagesSent)).toBe(2);
    expectCatalogShape();
  });

  it("counts a customer's message as received", async () => {
    const ws = await api.workspace();
    await simulator.inbound({ phone_number_id: ws.phoneNumberId, from: '14155552006', text: 'Hello' });
    await sumReaches(BusinessMetric.InboundMessagesReceived, 1);
    expect(sum(BusinessMetric.InboundMessagesReceived)).toBe(1);
    expect(sum(BusinessMetric.MessagesAccepted)).toBe(0);
    expectCatalogShape();
  });

  it('counts every request refused by the rate limit, and no other', async () => {
    const ws = await api.workspace();
    await setRateLimit(ws.id, 2);
    // One after another: each request's usage write, which the limit reads, is done before it answers.
    const replies = [];
    for (let i = 0; i < 10; i++) replies.push(await api.call('GET', '/api/v1/contacts', { key: ws.key }));
    const refused = replies.filter((reply) => reply.status === 429).length;
    expect(refused).toBeGreaterThan(0);
    expect(refused).toBeLessThan(replies.length);
    // An HTTP function prints its metrics before it answers.
    expect(sum(BusinessMetric.RequestsRateLimited)).toBe(refused);
    expectCatalogShape();
  });

  it('counts webhook delivery attempts: a failed one, then its retry that succeeded', async () => {
    const receiver = await startReceiver();
    try {
      receiver.respond((n) => (n === 1 ? 500 : 200));
      const ws = await api.workspace();
      expect((await api.call('POST', '/api/v1/webhooks', { key: ws.key, body: { url: receiver.url, events: ['contact.created'] } })).status).toBe(201);
      await api.call('POST', '/api/v1/contacts', { key: ws.key, body: { phone_number: '+14155552007' } });
      // The retry comes 5 s after the failed attempt (contract §10).
      await sumReaches(BusinessMetric.WebhookDeliveriesSucceeded, 1);
      expect(receiver.received).toHaveLength(2);
      expect(sum(BusinessMetric.WebhookDeliveriesFailed)).toBe(1);
      expect(sum(BusinessMetric.WebhookDeliveriesSucceeded)).toBe(1);
      expectCatalogShape();
    } finally {
      await receiver.stop();
    }
  });

  // Last: the paused number's message waits for a probe after the test.
  it('counts a number paused by an account-level error', async () => {
    const ws = await api.workspaceWithTemplates();
    await simulator.faults({ account_error_code: 190 });
    await api.call('POST', '/api/v1/messages', { key: ws.key, body: { to: '+14155552008', template: 'hello_world' } });
    await sumReaches(BusinessMetric.NumbersPaused, 1);
    expect(sum(BusinessMetric.NumbersPaused)).toBe(1);
    expect(sum(BusinessMetric.PlatformThrottled)).toBe(0);
    expectCatalogShape();
  });
});
