import { startSimulator, type Simulator } from '#simulator/server';
import { simulatorControl } from '../support/simulator';
import { APP_SECRET, expectedSignature, recipient, request, startReceiver, textMessage, TOKEN, type Receiver } from './support';

/** The simulator's coexistence with the WhatsApp Business app: echoes, history, contacts, syncs, offboarding (docs/platform-coexistence.md). */
let simulator: Simulator;
let receiver: Receiver;
const control = simulatorControl(() => simulator.url);
const WABA = '102290129340398';
let next = 200;

beforeAll(async () => {
  receiver = await startReceiver();
  simulator = await startSimulator({
    port: 0,
    accessTokens: [TOKEN],
    appSecret: APP_SECRET,
    webhookUrl: receiver.url,
    statusIntervalMs: 10,
    webhookRetryDelaysMs: [20],
  });
});
afterAll(async () => {
  await simulator.stop();
  await receiver.close();
});

const graph = (method: string, path: string, body?: unknown) => request(`${simulator.url}/v23.0/${path}`, method, body);
const simulate = (path: string, body: unknown) => request(`${simulator.url}/_simulate/${path}`, 'POST', body, null);

/** A new number on the WhatsApp Business app and the Cloud API. */
async function coexistenceNumber(): Promise<string> {
  const id = `1000000000${next++}`;
  expect((await simulate('numbers', { phone_number_id: id, waba_id: WABA, coexistence: true })).status).toBe(200);
  return id;
}

/** The webhooks of one field about one number, oldest first. */
const webhooksOf = (field: string, phoneNumberId: string) =>
  receiver.received.filter((w) => {
    const change = w.body.entry[0].changes[0];
    return change.field === field && (change.value as any).metadata?.phone_number_id === phoneNumberId;
  });
const valuesOf = (field: string, phoneNumberId: string): any[] => webhooksOf(field, phoneNumberId).map((w) => w.body.entry[0].changes[0].value);

it('marks the number as on the WhatsApp Business app (is_on_biz_app)', async () => {
  const id = await coexistenceNumber();
  expect((await graph('GET', `${id}?fields=is_on_biz_app,platform_type`)).body).toEqual({ is_on_biz_app: true, platform_type: 'CLOUD_API', id });
});

it('posts smb_message_echoes for a text the business typed in the app', async () => {
  const id = await coexistenceNumber();
  const customer = recipient();
  const answer = await control.coexistenceEcho(id, customer, 'See you at 5');
  expect(answer).toEqual({ wamid: expect.stringMatching(/^wamid\./), ok: true, delivered_status: 200 });
  const [webhook] = webhooksOf('smb_message_echoes', id);
  expect(webhook.headers['x-hub-signature-256']).toBe(expectedSignature(webhook.raw));
  expect(webhook.body).toEqual({
    object: 'whatsapp_business_account',
    entry: [
      {
        id: WABA,
        changes: [
          {
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: expect.stringMatching(/^1555\d{7}$/), phone_number_id: id },
              message_echoes: [
                {
                  from: (webhook.body.entry[0].changes[0].value as any).metadata.display_phone_number,
                  to: customer,
                  id: answer.wamid,
                  timestamp: expect.stringMatching(/^\d+$/),
                  type: 'text',
                  text: { body: 'See you at 5' },
                },
              ],
            },
            field: 'smb_message_echoes',
          },
        ],
      },
    ],
  });
});

it("posts one history webhook with the business's and the customer's messages, in threads by customer", async () => {
  const id = await coexistenceNumber();
  const [ana, ben] = [recipient(), recipient()];
  await control.coexistenceHistory(id, [
    { from: ana, text: 'Hello?', timestamp: 1739230950 },
    { to: ana, text: 'Hi Ana!', timestamp: 1739230955 },
    { to: ben, timestamp: 1739230970, status: 'PLAYED' },
  ]);
  const [value] = valuesOf('history', id);
  const business = value.metadata.display_phone_number;
  expect(value.history).toEqual([
    {
      metadata: { phase: 0, chunk_order: 1, progress: 100 },
      threads: [
        {
          id: ana,
          messages: [
            { from: ana, id: expect.any(String), timestamp: '1739230950', type: 'text', text: { body: 'Hello?' }, history_context: { status: 'READ' } },
            {
              from: business,
              to: ana,
              id: expect.any(String),
              timestamp: '1739230955',
              type: 'text',
              text: { body: 'Hi Ana!' },
              history_context: { status: 'READ' },
            },
          ],
        },
        {
          id: ben,
          messages: [
            { from: business, to: ben, id: expect.any(String), timestamp: '1739230970', type: 'media_placeholder', history_context: { status: 'PLAYED' } },
          ],
        },
      ],
    },
  ]);

  await simulate('coexistence/history', { phone_number_id: id, declined: true });
  expect(valuesOf('history', id)[1].history).toEqual([
    { errors: [expect.objectContaining({ code: 2593109, error_data: { details: 'History sharing is turned off by the business' } })] },
  ]);
});

it('posts smb_app_state_sync for contacts added and removed in the app', async () => {
  const id = await coexistenceNumber();
  await control.coexistenceContacts(id, [
    { phone: '16505551234', name: 'Pablo Morales' },
    { phone: '16505550000', action: 'remove' },
  ]);
  expect(valuesOf('smb_app_state_sync', id)[0].state_sync).toEqual([
    {
      type: 'contact',
      contact: { full_name: 'Pablo Morales', first_name: 'Pablo', phone_number: '16505551234' },
      action: 'add',
      metadata: { timestamp: expect.stringMatching(/^\d+$/) },
    },
    { type: 'contact', contact: { phone_number: '16505550000' }, action: 'remove', metadata: { timestamp: expect.stringMatching(/^\d+$/) } },
  ]);
});

describe('smb_app_data', () => {
  it('answers { messaging_product, request_id }, then posts the contacts, and the history in chunks; each sync type once (2593107)', async () => {
    const id = await coexistenceNumber();
    const contacts = await graph('POST', `${id}/smb_app_data`, { messaging_product: 'whatsapp', sync_type: 'smb_app_state_sync' });
    expect(contacts).toEqual({ status: 200, body: { messaging_product: 'whatsapp', request_id: expect.any(String) } });
    await receiver.waitFor(() => valuesOf('smb_app_state_sync', id).length === 1);
    expect(valuesOf('smb_app_state_sync', id)[0].state_sync).toHaveLength(2);

    expect((await graph('POST', `${id}/smb_app_data`, { messaging_product: 'whatsapp', sync_type: 'history' })).status).toBe(200);
    await receiver.waitFor(() => valuesOf('history', id).length === 3);
    // "They may not be delivered sequentially": compared in phase order.
    const chunks = valuesOf('history', id)
      .map((v) => v.history[0].metadata)
      .sort((x, y) => x.phase - y.phase);
    expect(chunks).toEqual([
      { phase: 0, chunk_order: 1, progress: 33 },
      { phase: 1, chunk_order: 1, progress: 66 },
      { phase: 2, chunk_order: 1, progress: 100 },
    ]);

    for (const sync_type of ['smb_app_state_sync', 'history'])
      expect(await graph('POST', `${id}/smb_app_data`, { messaging_product: 'whatsapp', sync_type })).toEqual({
        status: 400,
        body: { error: expect.objectContaining({ code: 2593107, type: 'OAuthException' }) },
      });
  });

  it('refuses a number that is not on the WhatsApp Business app, and an unknown sync type (100)', async () => {
    expect((await graph('POST', '100000000000999/smb_app_data', { messaging_product: 'whatsapp', sync_type: 'history' })).body.error.code).toBe(100);
    const id = await coexistenceNumber();
    expect((await graph('POST', `${id}/smb_app_data`, { messaging_product: 'whatsapp', sync_type: 'everything' })).body.error.code).toBe(100);
  });
});

it('limits a coexistence number to 20 messages a second (130429)', async () => {
  const id = await coexistenceNumber();
  const replies = await Promise.all(Array.from({ length: 25 }, () => graph('POST', `${id}/messages`, textMessage(recipient(), 'hi'))));
  expect(replies.filter((r) => r.status === 200).length).toBeLessThanOrEqual(20);
  expect(replies.filter((r) => r.status === 429).every((r) => r.body.error.code === 130429)).toBe(true);
  expect(replies.some((r) => r.status === 429)).toBe(true);
});

it('offboarding posts account_update PARTNER_REMOVED; sends then answer 133010 until the business signs up again', async () => {
  const id = await coexistenceNumber();
  expect(await control.coexistenceOffboard(id)).toEqual({ ok: true, delivered_status: 200 });
  const webhook = receiver.received.filter((w) => w.body.entry[0].changes[0].field === 'account_update').at(-1)!;
  expect(webhook.body).toEqual({
    object: 'whatsapp_business_account',
    entry: [
      {
        id: WABA,
        time: expect.any(Number),
        changes: [
          {
            value: {
              phone_number: expect.stringMatching(/^\d+$/),
              event: 'PARTNER_REMOVED',
              disconnection_info: { reason: 'ACCOUNT_DISCONNECTED', initiated_by: 'USER' },
            },
            field: 'account_update',
          },
        ],
      },
    ],
  });
  expect(await graph('POST', `${id}/messages`, textMessage(recipient(), 'hi'))).toEqual({
    status: 400,
    body: { error: expect.objectContaining({ code: 133010, message: '(#133010) Account not registered' }) },
  });
  expect((await control.coexistenceEcho(id, recipient(), 'hi')).error.code).toBe(100);

  const signup = await simulate('embedded-signup', { phone_number_id: id, coexistence: true });
  expect(signup.body).toEqual(expect.objectContaining({ phone_number_id: id, event: 'FINISH_WHATSAPP_BUSINESS_APP_ONBOARDING' }));
  expect((await graph('POST', `${id}/messages`, textMessage(recipient(), 'hi'))).status).toBe(200);
  expect((await graph('POST', `${id}/smb_app_data`, { messaging_product: 'whatsapp', sync_type: 'history' })).status).toBe(200);
});

it("Embedded Signup's coexistence mode makes a number of the WhatsApp Business app, already registered", async () => {
  const signup = (await simulate('embedded-signup', { coexistence: true })).body;
  expect(signup.event).toBe('FINISH_WHATSAPP_BUSINESS_APP_ONBOARDING');
  expect((await graph('GET', `${signup.phone_number_id}?fields=is_on_biz_app`)).body).toEqual({ is_on_biz_app: true, id: signup.phone_number_id });
  expect((await graph('POST', `${signup.phone_number_id}/smb_app_data`, { messaging_product: 'whatsapp', sync_type: 'smb_app_state_sync' })).status).toBe(200);
});
