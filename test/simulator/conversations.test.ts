import { createHash } from 'node:crypto';
import { startSimulator, type Simulator } from '#simulator/server';
import { APP_SECRET, PHONE_NUMBER_ID, request, startReceiver, TOKEN, type Receiver } from './support';

const WABA_ID = '102290129340398';
let simulator: Simulator;
let receiver: Receiver;

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
  simulator.registerNumber(PHONE_NUMBER_ID, WABA_ID);
});

afterAll(async () => {
  await simulator.stop();
  await receiver.close();
});

const sendUrl = () => `${simulator.url}/v26.0/${PHONE_NUMBER_ID}/messages`;
const session = (type: string, object: unknown, extra: object = {}) => ({ messaging_product: 'whatsapp', to: '14155550100', type, [type]: object, ...extra });
/** The latest webhook that is not a status report (status reports of earlier sends keep arriving). */
const lastWebhook = () => [...receiver.received].reverse().find((w) => !w.body.entry[0].changes[0].value.statuses)!.body as any;

describe('session sends, checked as the platform checks them', () => {
  it.each([
    ['image by link with caption', session('image', { link: 'https://x.example/a.jpg', caption: 'c' })],
    ['document by id with file name', session('document', { id: '123', filename: 'a.pdf' })],
    ['location', session('location', { latitude: 1.5, longitude: -2 })],
    [
      'reply buttons',
      session('interactive', { type: 'button', body: { text: 'b' }, action: { buttons: [{ type: 'reply', reply: { id: 'a', title: 'A' } }] } }),
    ],
    ['a reaction', session('reaction', { message_id: 'wamid.x', emoji: '👍' })],
    ['a reply with context', session('text', { body: 'hi' }, { context: { message_id: 'wamid.y' } })],
  ])('accepts %s', async (_name, body) => {
    const reply = await request(sendUrl(), 'POST', body);
    expect(reply.status).toBe(200);
    expect(reply.body.messages[0].id).toMatch(/^wamid\./);
  });

  const buttons = (n: number) => Array.from({ length: n }, (_, i) => ({ type: 'reply', reply: { id: `b${i}`, title: `B${i}` } }));
  it.each([
    ['a caption on audio', 100, session('audio', { link: 'https://x.example/a.ogg', caption: 'no' })],
    ['media with link and id', 100, session('image', { link: 'https://x.example/a.jpg', id: '1' })],
    ['4 reply buttons', 131009, session('interactive', { type: 'button', body: { text: 'b' }, action: { buttons: buttons(4) } })],
    [
      'a button title of 21 characters',
      131009,
      session('interactive', { type: 'button', body: { text: 'b' }, action: { buttons: [{ type: 'reply', reply: { id: 'a', title: 'x'.repeat(21) } }] } }),
    ],
    [
      'duplicate button titles',
      131009,
      session('interactive', {
        type: 'button',
        body: { text: 'b' },
        action: {
          buttons: [
            { type: 'reply', reply: { id: 'a', title: 'A' } },
            { type: 'reply', reply: { id: 'b', title: 'A' } },
          ],
        },
      }),
    ],
    [
      '11 list rows',
      131009,
      session('interactive', {
        type: 'list',
        body: { text: 'b' },
        action: { button: 'Go', sections: [{ title: 'S', rows: Array.from({ length: 11 }, (_, i) => ({ id: `r${i}`, title: 'R' })) }] },
      }),
    ],
    ['latitude 91', 100, session('location', { latitude: 91, longitude: 0 })],
    ['a reaction without message_id', 100, session('reaction', { emoji: '👍' })],
    ['a context without message_id', 100, session('text', { body: 'x' }, { context: {} })],
  ])('refuses %s with code %d', async (_name, code, body) => {
    const reply = await request(sendUrl(), 'POST', body);
    expect(reply.status).toBe(400);
    expect(reply.body.error).toMatchObject({ code, error_data: { messaging_product: 'whatsapp', details: expect.any(String) } });
  });

  it('answers the platform wa_id of Mexican and Brazilian numbers, and reports statuses to it', async () => {
    const mexico = await request(sendUrl(), 'POST', { ...session('text', { body: 'hola' }), to: '+52 55 1234 5678' });
    expect(mexico.body.contacts).toEqual([{ input: '+52 55 1234 5678', wa_id: '5215512345678' }]);
    const brazil = await request(sendUrl(), 'POST', { ...session('text', { body: 'oi' }), to: '5531987654321' });
    expect(brazil.body.contacts[0].wa_id).toBe('553187654321');
    await receiver.waitFor(() => receiver.statusesOf(mexico.body.messages[0].id).length > 0);
    expect(receiver.statusesOf(mexico.body.messages[0].id)[0].recipient_id).toBe('5215512345678');
  });

  it('names the registered business account in entry[].id', async () => {
    const reply = await request(sendUrl(), 'POST', session('text', { body: 'x' }));
    await receiver.waitFor(() => receiver.statusesOf(reply.body.messages[0].id).length > 0);
    const webhook = receiver.received.find((w) => w.body.entry[0].changes[0].value.statuses?.[0].id === reply.body.messages[0].id)!;
    expect(webhook.body.entry[0].id).toBe(WABA_ID);
  });
});

describe('inbound messages of every type, and their media', () => {
  it('posts an image with the id, mime type and sha256 (base64, as in webhooks; hex from GET, as there) of bytes it serves with the token', async () => {
    const reply = await request(
      `${simulator.url}/_simulate/inbound`,
      'POST',
      { phone_number_id: PHONE_NUMBER_ID, from: '15557654321', type: 'image', image: { caption: 'c' }, context: 'wamid.q' },
      null,
    );
    expect(reply.status).toBe(200);
    const message = lastWebhook().entry[0].changes[0].value.messages[0];
    expect(message).toMatchObject({
      type: 'image',
      image: { caption: 'c', id: reply.body.media_id, mime_type: 'image/jpeg', sha256: expect.stringMatching(/^[A-Za-z0-9+/]{43}=$/) },
      context: { id: 'wamid.q', from: expect.any(String) },
    });
    const object = await request(`${simulator.url}/v26.0/${reply.body.media_id}`, 'GET');
    expect(object.body).toEqual({
      messaging_product: 'whatsapp',
      url: expect.any(String),
      mime_type: 'image/jpeg',
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      file_size: expect.stringMatching(/^\d+$/),
      id: reply.body.media_id,
    });
    expect((await fetch(object.body.url)).status).toBe(401);
    const bytes = Buffer.from(await (await fetch(object.body.url, { headers: { Authorization: `Bearer ${TOKEN}` } })).arrayBuffer());
    expect(createHash('sha256').update(bytes).digest('base64')).toBe(message.image.sha256);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(object.body.sha256);
    expect(String(bytes.length)).toBe(object.body.file_size);
  });

  it.each([
    ['location', { location: { latitude: 1, longitude: 2, name: 'N', address: 'A' } }],
    ['contacts', { contacts: [{ name: { formatted_name: 'B' }, phones: [{ phone: '+1 555', type: 'HOME' }] }] }],
    ['interactive', { interactive: { type: 'list_reply', list_reply: { id: 'r', title: 'R', description: 'D' } } }],
    ['button', { button: { text: 'Stop promotions', payload: 'Stop promotions' } }],
    ['reaction', { reaction: { message_id: 'wamid.z', emoji: '❤️' } }],
  ])('posts %s with the platform object as given', async (type, object) => {
    expect(
      (await request(`${simulator.url}/_simulate/inbound`, 'POST', { phone_number_id: PHONE_NUMBER_ID, from: '15557654321', type, ...object }, null)).status,
    ).toBe(200);
    const webhook = lastWebhook();
    expect(webhook.entry[0].id).toBe(WABA_ID);
    expect(webhook.entry[0].changes[0].value.messages[0]).toMatchObject({ type, ...object });
  });

  it("posts unsupported with the platform's 131051 error", async () => {
    await request(`${simulator.url}/_simulate/inbound`, 'POST', { phone_number_id: PHONE_NUMBER_ID, from: '15557654321', type: 'unsupported' }, null);
    expect(lastWebhook().entry[0].changes[0].value.messages[0]).toMatchObject({ type: 'unsupported', errors: [{ code: 131051 }] });
  });

  it('serves registered media with a failing download', async () => {
    await request(`${simulator.url}/_simulate/media`, 'POST', { id: '42', download: 'not_found' }, null);
    const object = await request(`${simulator.url}/v26.0/42`, 'GET');
    expect((await fetch(object.body.url, { headers: { Authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
    expect((await request(`${simulator.url}/v26.0/no-such-media`, 'GET')).status).toBe(400);
  });
});

describe('POST /_simulate/template-status', () => {
  it('pushes message_template_status_update for the business account and lists the new status', async () => {
    const reply = await request(
      `${simulator.url}/_simulate/template-status`,
      'POST',
      { waba_id: WABA_ID, name: 'welcome', language: 'en_US', event: 'PAUSED' },
      null,
    );
    expect(reply.status).toBe(200);
    expect(lastWebhook()).toEqual({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: WABA_ID,
          time: expect.any(Number),
          changes: [
            {
              field: 'message_template_status_update',
              value: {
                event: 'PAUSED',
                message_template_id: expect.any(Number),
                message_template_name: 'welcome',
                message_template_language: 'en_US',
                reason: 'NONE',
              },
            },
          ],
        },
      ],
    });
    const list = await request(`${simulator.url}/v26.0/${WABA_ID}/message_templates?limit=5`, 'GET');
    const all = [...list.body.data];
    let next = list.body.paging?.next;
    while (next) {
      const page = await request(next, 'GET');
      all.push(...page.body.data);
      next = page.body.paging?.next;
    }
    expect(all.find((t: { name: string; language: string }) => t.name === 'welcome' && t.language === 'en_US').status).toBe('PAUSED');
    expect((await request(`${simulator.url}/v26.0/999/message_templates`, 'GET')).body.data.find((t: { name: string }) => t.name === 'welcome').status).toBe(
      'APPROVED',
    );
  });
});

describe('flows, read receipts and category changes (contract §21)', () => {
  const flow = (parameters: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    session('interactive', {
      type: 'flow',
      body: { text: 'Book' },
      action: { name: 'flow', parameters: { flow_message_version: '3', flow_id: '1', flow_cta: 'Open', flow_token: 't', ...parameters } },
      ...extra,
    });

  it('accepts a flow message with every documented parameter', async () => {
    const body = flow(
      { mode: 'draft', flow_action: 'navigate', flow_action_payload: { screen: 'S', data: { a: 1 } } },
      { header: { type: 'text', text: 'H' } },
    );
    expect((await request(sendUrl(), 'POST', body)).status).toBe(200);
  });

  it.each([
    ['without flow_message_version', 100, flow({ flow_message_version: undefined })],
    ['with flow_id and flow_name', 100, flow({ flow_name: 'n' })],
    ['with a flow_cta of 31 characters', 131009, flow({ flow_cta: 'x'.repeat(31) })],
    ['with empty data', 131009, flow({ flow_action_payload: { screen: 'S', data: {} } })],
    ['with a payload for data_exchange', 100, flow({ flow_action: 'data_exchange', flow_action_payload: { screen: 'S' } })],
  ])('refuses a flow %s with code %d', async (_name, code, body) => {
    const reply = await request(sendUrl(), 'POST', JSON.parse(JSON.stringify(body)));
    expect(reply.status).toBe(400);
    expect(reply.body.error.code).toBe(code);
  });

  it('takes a read receipt with a typing indicator for a message the number received, and refuses one for anything else', async () => {
    const inbound = await request(`${simulator.url}/_simulate/inbound`, 'POST', { phone_number_id: PHONE_NUMBER_ID, from: '15557650001', text: 'hi' }, null);
    const read = { messaging_product: 'whatsapp', status: 'read', message_id: inbound.body.wamid, typing_indicator: { type: 'text' } };
    expect(await request(sendUrl(), 'POST', read)).toMatchObject({ status: 200, body: { success: true } });
    const receipts = (await request(`${simulator.url}/_simulate/read-receipts`, 'GET', undefined, null)).body.data;
    expect(receipts.at(-1)).toMatchObject({ phone_number_id: PHONE_NUMBER_ID, message_id: inbound.body.wamid, typing: true, request: read });

    const sent = await request(sendUrl(), 'POST', session('text', { body: 'ours' }));
    expect((await request(sendUrl(), 'POST', { ...read, message_id: sent.body.messages[0].id })).body.error.code).toBe(100);
    expect((await request(sendUrl(), 'POST', { ...read, typing_indicator: { type: 'audio' } })).body.error.code).toBe(100);
  });

  it('pushes template_category_update: the warning first, then the change, which the listing shows', async () => {
    const push = (impending: boolean) =>
      request(
        `${simulator.url}/_simulate/template-category`,
        'POST',
        { waba_id: WABA_ID, name: 'welcome', language: 'en_US', category: 'UTILITY', impending },
        null,
      );
    await push(true);
    expect(lastWebhook().entry[0]).toMatchObject({
      id: WABA_ID,
      changes: [
        {
          field: 'template_category_update',
          value: { message_template_name: 'welcome', new_category: 'MARKETING', correct_category: 'UTILITY', category_update_timestamp: expect.any(Number) },
        },
      ],
    });
    await push(false);
    expect(lastWebhook().entry[0].changes[0].value).toMatchObject({ previous_category: 'MARKETING', new_category: 'UTILITY' });
    const listed = await request(`${simulator.url}/v26.0/${WABA_ID}/message_templates?limit=5`, 'GET');
    expect(listed.body.data.find((t: { name: string }) => t.name === 'welcome').category).toBe('UTILITY');
  });
});
