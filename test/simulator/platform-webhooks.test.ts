import { startSimulator, type Simulator } from '#simulator/server';
import {
  APP_SECRET,
  expectedSignature,
  PHONE_NUMBER_ID,
  recipient,
  request,
  sleep,
  startReceiver,
  templateMessage,
  textMessage,
  TOKEN,
  type Receiver,
} from './support';

const INTERVAL = 20;
let simulator: Simulator;
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver();
  simulator = await startSimulator({
    port: 0,
    accessTokens: [TOKEN],
    appSecret: APP_SECRET,
    webhookUrl: receiver.url,
    statusIntervalMs: INTERVAL,
    webhookRetryDelaysMs: [20, 20],
  });
});

afterAll(async () => {
  await simulator.stop();
  await receiver.close();
});

afterEach(async () => {
  receiver.respond = () => 200;
  await request(`${simulator.url}/_simulate/faults`, 'DELETE', undefined, null);
});

async function send(body: unknown, sim = simulator): Promise<string> {
  const reply = await request(`${sim.url}/v26.0/${PHONE_NUMBER_ID}/messages`, 'POST', body);
  expect(reply.status).toBe(200);
  return reply.body.messages[0].id as string;
}

const faults = (settings: object) => request(`${simulator.url}/_simulate/faults`, 'POST', settings, null);
const webhooksOf = (wamid: string) => receiver.received.filter((w) => w.body.entry[0].changes[0].value.statuses?.[0].id === wamid);

describe('status webhooks', () => {
  it('posts signed sent, delivered and read webhooks in order, in the Cloud API shape, echoing biz_opaque_callback_data', async () => {
    const to = recipient();
    const start = Date.now();
    const wamid = await send(templateMessage(to, 'order_update', 'en_US', ['Ana', 'A-1'], { biz_opaque_callback_data: 'campaign=7;msg=42' }));
    await receiver.waitFor(() => receiver.statusesOf(wamid).length === 3);

    const webhooks = webhooksOf(wamid);
    expect(webhooks.map((w) => w.body.entry[0].changes[0].value.statuses![0].status)).toEqual(['sent', 'delivered', 'read']);
    for (const webhook of webhooks) {
      expect(webhook.headers['content-type']).toBe('application/json');
      expect(webhook.headers['x-hub-signature-256']).toBe(expectedSignature(webhook.raw));
      expect(webhook.headers['x-hub-signature-256']).not.toBe(expectedSignature(webhook.raw, 'another-secret'));
      expect(webhook.body).toEqual({
        object: 'whatsapp_business_account',
        entry: [
          {
            id: PHONE_NUMBER_ID,
            changes: [
              {
                field: 'messages',
                value: {
                  messaging_product: 'whatsapp',
                  metadata: { display_phone_number: expect.stringMatching(/^1555\d{7}$/), phone_number_id: PHONE_NUMBER_ID },
                  statuses: [expect.objectContaining({ id: wamid, recipient_id: to, biz_opaque_callback_data: 'campaign=7;msg=42' })],
                },
              },
            ],
          },
        ],
      });
    }
    const [sent, delivered, read] = receiver.statusesOf(wamid);
    for (const status of [sent, delivered, read]) {
      expect(status.timestamp).toMatch(/^\d{10}$/);
      expect(Math.abs(Number(status.timestamp) - start / 1000)).toBeLessThan(5);
    }
    // v24.0+: no `conversation` outside a free entry point window; pricing on `sent` and on `delivered` (not on `read`).
    expect(sent.conversation).toBeUndefined();
    expect(sent.pricing).toEqual({ billable: true, pricing_model: 'PMP', type: 'regular', category: 'utility' });
    expect(delivered.pricing).toEqual(sent.pricing);
    expect(read.pricing).toBeUndefined();
    expect(read.errors).toBeUndefined();
    // Each status a separate POST, the first one interval after the send and each next at least one interval after the one before,
    // so the nth n intervals after the send. Two arrivals alone may come together on a loaded machine (one POST held up on the
    // way, the next not: 1 ms apart in a clean-clone CI), so the spacing is checked from the send.
    webhooks.forEach((webhook, i) => expect(webhook.at - start).toBeGreaterThanOrEqual((i + 1) * INTERVAL - 5));
  });

  it('omits biz_opaque_callback_data when the send had none, and prices free-form text as service', async () => {
    const wamid = await send(textMessage(recipient(), 'Hello'));
    await receiver.waitFor(() => receiver.statusesOf(wamid).length === 3);
    const [sent] = receiver.statusesOf(wamid);
    expect(sent).not.toHaveProperty('biz_opaque_callback_data');
    expect(sent.pricing).toEqual({ billable: false, pricing_model: 'PMP', type: 'free_customer_service', category: 'service' });
  });

  it('prices a message in a free entry point window (a recipient ending in 7777) as free_entry_point, with its conversation', async () => {
    const wamid = await send(templateMessage(recipient('7777'), 'welcome', 'en_US', ['Ana']));
    await receiver.waitFor(() => receiver.statusesOf(wamid).length === 3);
    const [sent, delivered] = receiver.statusesOf(wamid);
    expect(sent.pricing).toEqual({ billable: false, pricing_model: 'PMP', type: 'free_entry_point', category: 'referral_conversion' });
    expect(sent.conversation).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{32}$/),
      expiration_timestamp: expect.any(String),
      origin: { type: 'referral_conversion' },
    });
    expect(delivered.conversation).toEqual({ id: sent.conversation?.id, origin: { type: 'referral_conversion' } });
  });

  it('reports sent then failed with 131026 for a number ending in 9999', async () => {
    const to = recipient('9999');
    const wamid = await send(templateMessage(to, 'welcome', 'en_US', ['Ana'], { biz_opaque_callback_data: 'x' }));
    await receiver.waitFor(() => receiver.statusesOf(wamid).length === 2);
    await sleep(INTERVAL * 3);
    const statuses = receiver.statusesOf(wamid);
    expect(statuses.map((s) => s.status)).toEqual(['sent', 'failed']);
    expect(statuses[1]).toEqual({
      id: wamid,
      status: 'failed',
      timestamp: expect.stringMatching(/^\d+$/),
      recipient_id: to,
      biz_opaque_callback_data: 'x',
      errors: [
        {
          code: 131026,
          title: 'Message undeliverable',
          message: 'Message undeliverable',
          error_data: { details: expect.any(String) },
          href: expect.any(String),
        },
      ],
    });
  });

  it('fail_status reports that share of accepted sends sent then failed with its code, in the failed report shape', async () => {
    await faults({ fail_status: { code: 131050, share: 1 } });
    const to = recipient();
    const wamid = await send(templateMessage(to, 'welcome', 'en_US', ['Ana']));
    await receiver.waitFor(() => receiver.statusesOf(wamid).length === 2);
    await sleep(INTERVAL * 3);
    const statuses = receiver.statusesOf(wamid);
    expect(statuses.map((s) => s.status)).toEqual(['sent', 'failed']);
    expect(statuses[1]).toEqual({
      id: wamid,
      status: 'failed',
      timestamp: expect.stringMatching(/^\d+$/),
      recipient_id: to,
      errors: [{ code: 131050, title: expect.any(String), message: expect.any(String), error_data: { details: expect.any(String) }, href: expect.any(String) }],
    });

    await faults({ fail_status: { code: 131050, share: 0 } });
    const delivered = await send(templateMessage(recipient(), 'welcome', 'en_US', ['Ana']));
    await receiver.waitFor(() => receiver.statusesOf(delivered).length === 3);
    expect(receiver.statusesOf(delivered).map((s) => s.status)).toEqual(['sent', 'delivered', 'read']);
  });

  it('reports sent and delivered but never read for a number ending in 9998', async () => {
    const wamid = await send(textMessage(recipient('9998'), 'Hello'));
    await receiver.waitFor(() => receiver.statusesOf(wamid).length === 2);
    await sleep(INTERVAL * 4);
    expect(receiver.statusesOf(wamid).map((s) => s.status)).toEqual(['sent', 'delivered']);
  });

  it('duplicate_statuses posts every status twice, byte for byte', async () => {
    await faults({ duplicate_statuses: true });
    const wamid = await send(textMessage(recipient(), 'Hello'));
    await receiver.waitFor(() => receiver.statusesOf(wamid).length === 6);
    await sleep(INTERVAL * 2);
    const webhooks = webhooksOf(wamid);
    expect(webhooks).toHaveLength(6);
    for (const status of ['sent', 'delivered', 'read']) {
      const copies = webhooks.filter((w) => w.body.entry[0].changes[0].value.statuses![0].status === status);
      expect(copies).toHaveLength(2);
      expect(copies[0].raw.equals(copies[1].raw)).toBe(true);
      expect(copies[1].headers['x-hub-signature-256']).toBe(expectedSignature(copies[1].raw));
    }
  });

  it('reorder_statuses posts a message’s statuses out of order, with timestamps still in logical order', async () => {
    await faults({ reorder_statuses: true });
    const wamid = await send(textMessage(recipient(), 'Hello'));
    await receiver.waitFor(() => receiver.statusesOf(wamid).length === 3);
    const statuses = receiver.statusesOf(wamid);
    expect(statuses.map((s) => s.status)).not.toEqual(['sent', 'delivered', 'read']);
    expect([...statuses.map((s) => s.status)].sort()).toEqual(['delivered', 'read', 'sent']);
    const timestampOf = (name: string) => Number(statuses.find((s) => s.status === name)!.timestamp);
    expect(timestampOf('sent')).toBeLessThanOrEqual(timestampOf('delivered'));
    expect(timestampOf('delivered')).toBeLessThanOrEqual(timestampOf('read'));
  });

  it('skip_delivered posts read without a delivered before it, read then carrying the pricing', async () => {
    await faults({ skip_delivered: true });
    const wamid = await send(textMessage(recipient(), 'Hello'));
    await receiver.waitFor(() => receiver.statusesOf(wamid).length === 2);
    await sleep(INTERVAL * 3);
    const statuses = receiver.statusesOf(wamid);
    expect(statuses.map((s) => s.status)).toEqual(['sent', 'read']);
    expect(statuses[1].pricing).toEqual(statuses[0].pricing);
  });

  it('no_webhooks suppresses status webhooks', async () => {
    await faults({ no_webhooks: true });
    const wamid = await send(textMessage(recipient(), 'Hello'));
    await sleep(INTERVAL * 5);
    expect(receiver.statusesOf(wamid)).toEqual([]);
  });

  it('retries a webhook the receiver did not accept, then stops retrying once accepted', async () => {
    let failures = 0;
    receiver.respond = (w) => (w.body.entry[0].changes[0].value.statuses?.[0].status === 'sent' && failures++ < 2 ? 503 : 200);
    const wamid = await send(textMessage(recipient(), 'Hello'));
    await receiver.waitFor(() => receiver.statusesOf(wamid).filter((s) => s.status === 'sent').length === 3);
    await sleep(INTERVAL * 5);
    const sent = webhooksOf(wamid).filter((w) => w.body.entry[0].changes[0].value.statuses![0].status === 'sent');
    expect(sent).toHaveLength(3);
    expect(new Set(sent.map((w) => w.raw.toString())).size).toBe(1);
    expect(receiver.statusesOf(wamid).filter((s) => s.status === 'read')).toHaveLength(1);
  });

  it('gives up after the last retry and keeps working', async () => {
    receiver.respond = () => 500;
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const wamid = await send(textMessage(recipient('9998'), 'Hello'));
      await sleep(INTERVAL * 2 + 20 * 2 + 150);
      // 2 statuses x (1 attempt + 2 retries)
      expect(receiver.statusesOf(wamid)).toHaveLength(6);
      expect(warn).toHaveBeenCalledWith(expect.stringMatching(/dropped after 3 attempts \(HTTP 500\)/));
    } finally {
      warn.mockRestore();
    }
    receiver.respond = () => 200;
    expect((await request(`${simulator.url}/health`, 'GET', undefined, null)).status).toBe(200);
  });
});

describe('POST /_simulate/inbound', () => {
  it('posts a signed inbound text webhook and answers what our endpoint answered', async () => {
    const before = receiver.received.length;
    const reply = await request(
      `${simulator.url}/_simulate/inbound`,
      'POST',
      { phone_number_id: PHONE_NUMBER_ID, from: '15557654321', text: 'STOP', name: 'Ana' },
      null,
    );
    expect(reply).toEqual({ status: 200, body: { ok: true, wamid: expect.stringMatching(/^wamid\./), delivered_status: 200 } });
    // Awaited: the webhook has arrived by the time the call answers.
    expect(receiver.received.length).toBe(before + 1);
    const webhook = receiver.received[before];
    expect(webhook.headers['x-hub-signature-256']).toBe(expectedSignature(webhook.raw));
    expect(webhook.body).toEqual({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: PHONE_NUMBER_ID,
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: expect.stringMatching(/^\d+$/), phone_number_id: PHONE_NUMBER_ID },
                contacts: [{ profile: { name: 'Ana' }, wa_id: '15557654321' }],
                messages: [{ from: '15557654321', id: reply.body.wamid, timestamp: expect.stringMatching(/^\d{10}$/), type: 'text', text: { body: 'STOP' } }],
              },
            },
          ],
        },
      ],
    });
  });

  it('reports a refusal of our endpoint as delivered_status', async () => {
    receiver.respond = () => 401;
    const reply = await request(`${simulator.url}/_simulate/inbound`, 'POST', { phone_number_id: PHONE_NUMBER_ID, from: '15557654321', text: 'hi' }, null);
    expect(reply.body).toMatchObject({ ok: true, delivered_status: 401 });
    const webhook = receiver.received[receiver.received.length - 1];
    expect(webhook.body.entry[0].changes[0].value.contacts![0].profile.name).toEqual(expect.any(String));
  });

  it.each([
    [{ from: '15557654321', text: 'hi' }],
    [{ phone_number_id: PHONE_NUMBER_ID, text: 'hi' }],
    [{ phone_number_id: PHONE_NUMBER_ID, from: 'abc', text: 'hi' }],
    [{ phone_number_id: PHONE_NUMBER_ID, from: '15557654321', text: '' }],
  ])('rejects %j with 400', async (body) => {
    const reply = await request(`${simulator.url}/_simulate/inbound`, 'POST', body, null);
    expect(reply.status).toBe(400);
    expect(reply.body.error.code).toBe(100);
  });
});

describe('webhook URL and stop()', () => {
  it('sends nothing until a webhook URL is set, then uses it (setWebhookUrl)', async () => {
    const other = await startSimulator({ port: 0, accessTokens: [TOKEN], appSecret: 'other-secret', statusIntervalMs: INTERVAL });
    const local = await startReceiver();
    try {
      const inbound = await request(`${other.url}/_simulate/inbound`, 'POST', { phone_number_id: PHONE_NUMBER_ID, from: '15557654321', text: 'hi' }, null);
      expect(inbound.status).toBe(409);
      await send(textMessage(recipient(), 'before'), other);
      await sleep(INTERVAL * 5); // its statuses are due, and dropped: no URL at delivery time
      other.setWebhookUrl(local.url);
      const wamid = await send(textMessage(recipient(), 'after'), other);
      await local.waitFor(() => local.statusesOf(wamid).length === 3);
      expect(local.received).toHaveLength(3);
      expect(local.received[0].headers['x-hub-signature-256']).toBe(expectedSignature(local.received[0].raw, 'other-secret'));
    } finally {
      await other.stop();
      await local.close();
    }
  });

  it('stop() cancels pending status webhooks', async () => {
    const local = await startReceiver();
    const other = await startSimulator({ port: 0, accessTokens: [TOKEN], appSecret: APP_SECRET, webhookUrl: local.url, statusIntervalMs: 50 });
    try {
      await send(textMessage(recipient(), 'Hello'), other);
      await other.stop();
      await sleep(250);
      expect(local.received).toEqual([]);
    } finally {
      await local.close();
    }
  });

  it('survives an unreachable webhook URL', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const other = await startSimulator({
      port: 0,
      accessTokens: [TOKEN],
      appSecret: APP_SECRET,
      webhookUrl: 'http://127.0.0.1:9/webhooks/whatsapp',
      statusIntervalMs: 5,
      webhookRetryDelaysMs: [5],
    });
    try {
      await send(textMessage(recipient(), 'Hello'), other);
      const inbound = await request(`${other.url}/_simulate/inbound`, 'POST', { phone_number_id: PHONE_NUMBER_ID, from: '15557654321', text: 'hi' }, null);
      expect(inbound.body).toMatchObject({ ok: true, delivered_status: null, error: expect.any(String) });
      await sleep(100);
      expect((await request(`${other.url}/health`, 'GET', undefined, null)).status).toBe(200);
    } finally {
      await other.stop();
      warn.mockRestore();
    }
  });
});
