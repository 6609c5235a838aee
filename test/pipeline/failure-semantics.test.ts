import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { awsClientConfig } from '#local/sdk-client-config';
import { getCampaign } from '#shared/data/campaign';
import * as templateParameters from '#shared/domain/templates/parameters';
import * as queues from '#shared/queue-client';
import { useTestApi, type TestWorkspace } from '../support/api';
import { simulatorControl } from '../support/simulator';
import { eventually } from '../support/wait';

process.env.MAX_SEND_ATTEMPTS = '3';
process.env.SEND_BACKOFF_SCALE = '0.05';
process.env.GRAPH_TIMEOUT_MS = '500';
process.env.AMBIGUOUS_WAIT_SECONDS = '3';
process.env.LOCAL_STREAM_RETRY_ATTEMPTS = '2';
const api = useTestApi({ runtime: true, statusIntervalMs: 20 });
const simulator = simulatorControl(() => api.simulator.url);

/** Puts a job straight on a dead-letter queue, as the queue does once a job failed on every receive. */
async function deadLetter(queueUrl: string | undefined, job: unknown): Promise<void> {
  const sqs = new SQSClient(awsClientConfig(process.env.SQS_ENDPOINT));
  await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(job) }));
  sqs.destroy();
}

const message = async (ws: TestWorkspace, id: string) => (await api.call('GET', `/api/v1/messages/${id}`, { key: ws.key })).body.data;

describe('nothing stays queued (contract §14)', () => {
  afterEach(() => simulator.resetFaults());

  it('fails a message whose retries are used up with send_failed and the last platform error as title, after that many calls', async () => {
    const ws = await api.workspaceWithTemplates();
    await simulator.faults({ server_error_share: 1 });
    const reply = await api.call('POST', '/api/v1/messages', { key: ws.key, body: { to: '+14155580100', template: 'hello_world' } });
    const failed = await eventually(
      () => message(ws, reply.body.data.message_id),
      (m) => m.status === 'failed',
      30_000,
    );
    expect(failed.error).toEqual({ code: 'send_failed', title: '(#131000) Something went wrong' });
    expect(failed.metadata.send_attempts).toBe(3);
  });

  it('a send job the queue dead-letters leaves its message failed with send_failed and its campaign completed', async () => {
    const ws: TestWorkspace = await api.workspaceWithTemplates();
    // Held back by the platform's throughput limit (waits that are not attempts), the campaign's message is still queued when its job is dead-lettered.
    await simulator.faults({ rate_limit_share: 1 });
    const campaign = (await api.call('POST', '/api/v1/campaigns', { key: ws.key, body: { name: 'DLQ', template_name: 'hello_world' } })).body.data;
    await api.call('POST', `/api/v1/campaigns/${campaign.id}/launch`, { key: ws.key, body: { recipients: [{ phone: '+14155580200' }] } });
    const [queued] = (
      await eventually(
        () => api.call('GET', `/api/v1/messages?campaign_id=${campaign.id}`, { key: ws.key }),
        (r) => r.body.data.length === 1,
      )
    ).body.data;
    await deadLetter(process.env.SEND_DEAD_LETTER_QUEUE_URL, { workspace_id: ws.id, message_id: queued.id });

    const failed = await eventually(
      () => message(ws, queued.id),
      (m) => m.status === 'failed',
      30_000,
    );
    // Failed by the dead-letter consumer, not by the job's own retries running out.
    expect(failed.error).toEqual({ code: 'send_failed', title: 'The send job failed on every try and was given up' });
    const results = await eventually(
      async () => (await api.call('GET', `/api/v1/campaigns/${campaign.id}/results`, { key: ws.key })).body.data,
      (r) => r.status === 'completed',
      30_000,
    );
    expect(results.metrics).toMatchObject({ total_messages: 1, failed: 1, pending: 0 });
  });
});

describe('a campaign always completes (contract §14)', () => {
  it('a fan-out chunk the queue dead-letters gives its recipients failed messages with send_failed, the campaign completes counting them, and a retry sends them whole', async () => {
    const ws = await api.workspaceWithTemplates();
    // The fan-out fails on every receive (building its messages throws); the queue would dead-letter the chunk after 8 receives (16 minutes): the test puts it there at once.
    const prepare = templateParameters.prepareTemplate;
    const broken = jest.spyOn(templateParameters, 'prepareTemplate').mockImplementation((...args) => {
      if (new Error().stack?.includes('fanOutChunk')) throw new Error('Fan-out broken');
      return prepare(...args);
    });
    try {
      const campaign = (await api.call('POST', '/api/v1/campaigns', { key: ws.key, body: { name: 'Fan-out DLQ', template_name: 'welcome' } })).body.data;
      const recipients = ['+14155580500', '+14155580501', '+14155580502'].map((phone, i) => ({ phone, name: `R${i}` }));
      expect(
        (await api.call('POST', `/api/v1/campaigns/${campaign.id}/launch`, { key: ws.key, body: { recipients, template_variables: ['{{name}}'] } })).status,
      ).toBe(202);
      const { launch_id } = (await getCampaign(ws.id, campaign.id))!;
      await deadLetter(process.env.FANOUT_DEAD_LETTER_QUEUE_URL, { workspace_id: ws.id, campaign_id: campaign.id, launch_id, chunk: 0 });

      const results = await eventually(
        async () => (await api.call('GET', `/api/v1/campaigns/${campaign.id}/results`, { key: ws.key })).body.data,
        (r) => r.status === 'completed',
        30_000,
      );
      expect(results.metrics).toMatchObject({ total_messages: 3, failed: 3, pending: 0 });
      const messages = (await api.call('GET', `/api/v1/messages?campaign_id=${campaign.id}`, { key: ws.key })).body.data;
      expect(messages.map((m: { phone_number: string }) => m.phone_number).sort()).toEqual(recipients.map((r) => r.phone.slice(1)));
      for (const m of messages) {
        expect((await message(ws, m.id)).error).toEqual({
          code: 'send_failed',
          title: 'The campaign could not create this message: its fan-out failed on every try',
        });
      }
      expect(await simulator.sends('14155580500')).toEqual([]);

      // send_failed is transient: once the fan-out works again, a retry rebuilds each message from the launch's values.
      broken.mockRestore();
      const retry = await api.call('POST', `/api/v1/campaigns/${campaign.id}/retry`, { key: ws.key });
      expect(retry.body.data).toMatchObject({ retried_count: 3, skipped_count: 0 });
      const again = await eventually(
        async () => (await api.call('GET', `/api/v1/campaigns/${campaign.id}/results`, { key: ws.key })).body.data,
        (r) => r.status === 'completed' && r.metrics.read === 3,
        30_000,
      );
      expect(again.metrics).toMatchObject({ total_messages: 3, failed: 0, pending: 0 });
      const retried = (await api.call('GET', `/api/v1/messages?campaign_id=${campaign.id}&status=read`, { key: ws.key })).body.data;
      expect((await Promise.all(retried.map(async (m: { id: string }) => (await message(ws, m.id)).content))).sort()).toEqual(
        recipients.map((r) => `Welcome to our service, ${r.name}!`),
      );
    } finally {
      broken.mockRestore();
    }
  });
});

describe('a stream batch given up on (contract §14)', () => {
  it('a message whose send job the table stream never manages to queue fails with send_failed once the stream gives up on its batch', async () => {
    const ws = await api.workspaceWithTemplates();
    const enqueue = queues.enqueue;
    // Read here, not in the functions' calls: a function that reads SEND_QUEUE_URL must have it (local/iam/environment.ts).
    const sendQueue = queues.queueUrl('send');
    // The send queue refuses every job (the stream function fails its batch on every try, and so does the retry of its record).
    const broken = jest.spyOn(queues, 'enqueue').mockImplementation(async (url, jobs) => {
      if (url === sendQueue && jobs.length) throw new Error('Send queue unavailable');
      return enqueue(url, jobs);
    });
    try {
      const reply = await api.call('POST', '/api/v1/messages', { key: ws.key, body: { to: '+14155580600', template: 'hello_world' } });
      expect(reply.status).toBe(202);
      const failed = await eventually(
        () => message(ws, reply.body.data.message_id),
        (m) => m.status === 'failed',
        30_000,
      );
      expect(failed.error).toEqual({ code: 'send_failed', title: 'Its send could not be queued: the table stream failed on every try' });
      expect(await simulator.sends('14155580600')).toEqual([]);
    } finally {
      broken.mockRestore();
    }
    // The stream went on past the batch: the next message is sent as usual.
    const next = await api.call('POST', '/api/v1/messages', { key: ws.key, body: { to: '+14155580601', template: 'hello_world' } });
    await eventually(
      () => message(ws, next.body.data.message_id),
      (m) => m.status === 'read',
      30_000,
    );
  });
});

describe('ambiguous sends (contract §14)', () => {
  afterEach(() => simulator.resetFaults());

  it('a send whose answer never comes is not sent again: the report with our id gives it its platform id and status', async () => {
    const ws = await api.workspaceWithTemplates();
    await simulator.faults({ timeout_share: 1 });
    const reply = await api.call('POST', '/api/v1/messages', { key: ws.key, body: { to: '+14155580300', template: 'hello_world' } });
    const read = await eventually(
      () => message(ws, reply.body.data.message_id),
      (m) => m.status === 'read',
      30_000,
    );
    await simulator.resetFaults();
    const sends = await simulator.sends('14155580300');
    expect(sends).toHaveLength(1);
    expect(read.provider_message_id).toBe(sends[0].wamid);
    expect(read.metadata.send_attempts).toBe(1);
    // Past the wait, nothing more goes out.
    await new Promise((resolve) => setTimeout(resolve, 3500));
    expect(await simulator.sends('14155580300')).toHaveLength(1);
  });

  it('without a report in the wait, the message is sent once more', async () => {
    const ws = await api.workspaceWithTemplates();
    await simulator.faults({ timeout_share: 1, no_webhooks: true });
    const reply = await api.call('POST', '/api/v1/messages', { key: ws.key, body: { to: '+14155580400', template: 'hello_world' } });
    await eventually(
      () => simulator.sends('14155580400'),
      (l) => l.length === 1,
    );
    // The second call is answered.
    await simulator.faults({ timeout_share: 0, no_webhooks: true });
    const sent = await eventually(
      () => message(ws, reply.body.data.message_id),
      (m) => m.status === 'sent',
      30_000,
    );
    const sends = await simulator.sends('14155580400');
    expect(sends).toHaveLength(2);
    expect(sent.provider_message_id).toBe(sends[1].wamid);
    expect(sent.metadata.send_attempts).toBe(2);
  });
});

describe('account-level platform errors pause the number (contract §16)', () => {
  it('with 190 on every send a 50-recipient campaign stays running with paused_reason and no message failed; once accepted again every message is sent once, without a call to the API', async () => {
    process.env.PAUSE_PROBE_SCALE = '0.01';
    const ws = await api.workspaceWithTemplates();
    await simulator.faults({ account_error_code: 190 });
    const campaign = (await api.call('POST', '/api/v1/campaigns', { key: ws.key, body: { name: 'Paused', template_name: 'hello_world' } })).body.data;
    const recipients = Array.from({ length: 50 }, (_, i) => ({ phone: `+1415559${String(1000 + i)}` }));
    expect((await api.call('POST', `/api/v1/campaigns/${campaign.id}/launch`, { key: ws.key, body: { recipients } })).status).toBe(202);
    const results = () => api.call('GET', `/api/v1/campaigns/${campaign.id}/results`, { key: ws.key }).then((r) => r.body.data);
    const paused = await eventually(results, (r) => r.paused_reason !== null, 30_000);
    expect(paused).toMatchObject({ status: 'running', paused_reason: { code: 190, title: expect.any(String), since: expect.any(String) } });
    // Probes keep failing for a while; nothing fails meanwhile.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect((await results()).metrics).toMatchObject({ total_messages: 50, failed: 0, pending: 50 });

    await simulator.resetFaults();
    const done = await eventually(results, (r) => r.status === 'completed', 60_000);
    expect(done.metrics).toMatchObject({ total_messages: 50, failed: 0, pending: 0 });
    expect(done.paused_reason).toBeNull();
    for (const { phone } of recipients) expect(await simulator.sends(phone.slice(1))).toHaveLength(1);
  }, 90_000);
});
