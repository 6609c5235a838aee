import { startSimulator, type Simulator } from '#simulator/server';
import { APP_SECRET, PHONE_NUMBER_ID, recipient, request, startReceiver, templateMessage, textMessage, TOKEN, type Receiver } from './support';

let simulator: Simulator;
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver();
  simulator = await startSimulator({ port: 0, accessTokens: [TOKEN], appSecret: APP_SECRET, webhookUrl: receiver.url, statusIntervalMs: 20 });
});

afterAll(async () => {
  await simulator.stop();
  await receiver.close();
});

afterEach(async () => {
  await request(`${simulator.url}/_simulate/faults`, 'DELETE', undefined, null);
});

const messagesUrl = (phoneNumberId = PHONE_NUMBER_ID) => `${simulator.url}/v26.0/${phoneNumberId}/messages`;
const send = (body: unknown, token: string | null = TOKEN) => request(messagesUrl(), 'POST', body, token);
const sentTo = async (to: string) => (await request(`${simulator.url}/_simulate/messages?to=${to}`, 'GET', undefined, null)).body.data;

function expectGraphError(reply: { status: number; body: any }, status: number, code: number, message: string | RegExp) {
  expect(reply.status).toBe(status);
  expect(reply.body).toEqual({
    error: {
      message: typeof message === 'string' ? message : expect.stringMatching(message),
      type: 'OAuthException',
      code,
      error_data: { messaging_product: 'whatsapp', details: expect.any(String) },
      fbtrace_id: expect.any(String),
    },
  });
}

describe('POST /{version}/{phone_number_id}/messages: accepted', () => {
  it('sends a template with the right parameters: wamid, contacts, accepted, recorded', async () => {
    const to = recipient();
    const reply = await send(templateMessage(to, 'order_update', 'en_US', ['Ana', 'A-1001'], { biz_opaque_callback_data: 'msg_42' }));
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      messaging_product: 'whatsapp',
      contacts: [{ input: to, wa_id: to }],
      messages: [{ id: expect.stringMatching(/^wamid\.[A-Za-z0-9+/]+=*$/), message_status: 'accepted' }],
    });
    const records = await sentTo(to);
    expect(records).toEqual([
      {
        wamid: reply.body.messages[0].id,
        phone_number_id: PHONE_NUMBER_ID,
        to,
        type: 'template',
        template: {
          name: 'order_update',
          language: { code: 'en_US' },
          components: [
            {
              type: 'body',
              parameters: [
                { type: 'text', text: 'Ana' },
                { type: 'text', text: 'A-1001' },
              ],
            },
          ],
        },
        biz_opaque_callback_data: 'msg_42',
        received_at: expect.any(String),
        request: templateMessage(to, 'order_update', 'en_US', ['Ana', 'A-1001'], { biz_opaque_callback_data: 'msg_42' }),
        access_token: TOKEN,
      },
    ]);
    expect(Date.parse(records[0].received_at)).toBeGreaterThan(Date.now() - 5000);
  });

  it('sends a template without placeholders and without components', async () => {
    const reply = await send(templateMessage(recipient(), 'hello_world', 'en_US', []));
    expect(reply.status).toBe(200);
  });

  it('counts distinct placeholders and accepts the other language of a template', async () => {
    expect((await send(templateMessage(recipient(), 'order_update', 'es_ES', ['Ana', 'B-7']))).status).toBe(200);
    expect((await send(templateMessage(recipient(), 'welcome', 'en_US', ['Ana']))).status).toBe(200);
  });

  it('sends free-form text (no 24 h window check) and defaults type to text', async () => {
    const to = recipient();
    const reply = await send(textMessage(to, 'Hi there', { text: { body: 'Hi there', preview_url: false } }));
    expect(reply.status).toBe(200);
    expect(reply.body.messages).toEqual([{ id: expect.stringMatching(/^wamid\./) }]);
    const untyped = await send({ messaging_product: 'whatsapp', to, text: { body: 'No type' } });
    expect(untyped.status).toBe(200);
    const records = await sentTo(to);
    expect(records.map((r: { type: string; text: unknown }) => [r.type, r.text])).toEqual([
      ['text', { body: 'Hi there', preview_url: false }],
      ['text', { body: 'No type' }],
    ]);
  });

  it('accepts a 4096-character text body', async () => {
    expect((await send(textMessage(recipient(), 'x'.repeat(4096)))).status).toBe(200);
  });

  it('answers the digits as wa_id when the number is formatted, and records by digits', async () => {
    const digits = recipient();
    const input = `+${digits.slice(0, 1)} ${digits.slice(1, 4)}-${digits.slice(4)}`;
    const reply = await send(textMessage(input, 'Hello'));
    expect(reply.body.contacts).toEqual([{ input, wa_id: digits }]);
    expect(await sentTo(digits)).toHaveLength(1);
    expect(await sentTo(`%2B${digits}`)).toHaveLength(1);
  });

  it('gives every message a different wamid', async () => {
    const to = recipient();
    const ids = await Promise.all(Array.from({ length: 20 }, async () => (await send(textMessage(to, 'x'))).body.messages[0].id));
    expect(new Set(ids).size).toBe(20);
  });

  it('keeps the base64 padding of its ids, as real ids do (`…RgA=`)', async () => {
    const id: string = (await send(textMessage(recipient(), 'x'))).body.messages[0].id;
    expect(id.slice('wamid.'.length).length % 4).toBe(0);
    expect(id).toMatch(/=$/);
  });
});

describe('POST /{version}/{phone_number_id}/messages: refused', () => {
  it('rejects a bad token with 401 and code 190, and records nothing', async () => {
    const to = recipient();
    for (const token of ['nope', null]) {
      const reply = await send(textMessage(to, 'Hi'), token);
      expect(reply.status).toBe(401);
      expect(reply.body.error).toMatchObject({ code: 190, type: 'OAuthException' });
    }
    expect(await sentTo(to)).toEqual([]);
  });

  it.each([
    ['too few body parameters', 'order_update', 'en_US', ['Ana'], 'body: number of localizable_params (1) does not match the expected number of params (2)'],
    [
      'too many body parameters',
      'welcome',
      'en_US',
      ['Ana', 'extra'],
      'body: number of localizable_params (2) does not match the expected number of params (1)',
    ],
    [
      'parameters for a template without placeholders',
      'hello_world',
      'en_US',
      ['Ana'],
      'body: number of localizable_params (1) does not match the expected number of params (0)',
    ],
    [
      'no parameters for a template with placeholders',
      'order_update',
      'es_ES',
      [],
      'body: number of localizable_params (0) does not match the expected number of params (2)',
    ],
  ])('answers 132000 for %s', async (_label, name, language, params, details) => {
    const to = recipient();
    const reply = await send(templateMessage(to, name, language, params));
    expectGraphError(reply, 400, 132000, '(#132000) Number of parameters does not match the expected number of params');
    expect(reply.body.error.error_data.details).toBe(details);
    expect(await sentTo(to)).toEqual([]);
  });

  it('answers 132000 for header parameters (the templates have no header)', async () => {
    const message = templateMessage(recipient(), 'welcome', 'en_US', ['Ana']);
    message.template.components!.push({ type: 'header', parameters: [{ type: 'text', text: 'Hi' }] });
    expectGraphError(await send(message), 400, 132000, /^\(#132000\) /);
  });

  describe('a template with a header (platform logs: 132012 "Format mismatch … received UNKNOWN", 132000 "localizable_params (0)")', () => {
    const spring = (header?: object) => ({
      ...templateMessage(recipient(), 'spring_promo', 'en_US', []),
      template: {
        name: 'spring_promo',
        language: { code: 'en_US' },
        components: [
          ...(header ? [{ type: 'header', parameters: [header] }] : []),
          { type: 'body', parameters: ['20%', 'Sunday'].map((text) => ({ type: 'text', text })) },
          { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: 'spring' }] },
        ],
      },
    });

    it('answers 132012 for an image header left out, and for a video given in its place', async () => {
      const missing = await send(spring());
      expectGraphError(missing, 400, 132012, '(#132012) Parameter format does not match format in the created template');
      expect(missing.body.error.error_data.details).toBe('header: Format mismatch, expected IMAGE, received UNKNOWN');
      const video = await send(spring({ type: 'video', video: { link: 'https://cdn.example.com/v.mp4' } }));
      expect(video.body.error.error_data.details).toBe('header: Format mismatch, expected IMAGE, received VIDEO');
      expect((await send(spring({ type: 'image', image: { link: 'https://cdn.example.com/p.jpg' } }))).status).toBe(200);
    });

    it("answers 132000 for a text header's parameter left out", async () => {
      const reply = await send(templateMessage(recipient(), 'delivery_window', 'en_US', []));
      expectGraphError(reply, 400, 132000, '(#132000) Number of parameters does not match the expected number of params');
      expect(reply.body.error.error_data.details).toBe('header: number of localizable_params (0) does not match the expected number of params (1)');
    });
  });

  it.each([
    ['an unknown template', 'no_such_template', 'en_US', [], 'template name (no_such_template) does not exist in en_US'],
    ['a language the template has no translation in', 'welcome', 'es_ES', ['Ana'], 'template name (welcome) does not exist in es_ES'],
    ['a PENDING template', 'spring_sale', 'en_US', ['20%'], 'template name (spring_sale) does not exist in en_US'],
    ['a REJECTED template', 'old_offer', 'en_US', ['x'], 'template name (old_offer) does not exist in en_US'],
  ])('answers 132001 for %s', async (_label, name, language, params, details) => {
    const reply = await send(templateMessage(recipient(), name, language, params));
    expectGraphError(reply, 400, 132001, '(#132001) Template name does not exist in the translation');
    expect(reply.body.error.error_data.details).toBe(details);
  });

  const to = '15550001234';
  it.each([
    ['a missing messaging_product', { to, type: 'text', text: { body: 'x' } }],
    ['a wrong messaging_product', { messaging_product: 'sms', to, type: 'text', text: { body: 'x' } }],
    ['an unknown recipient_type', { messaging_product: 'whatsapp', recipient_type: 'broadcast', to, type: 'text', text: { body: 'x' } }],
    ['recipient_type group with a phone number as to', { messaging_product: 'whatsapp', recipient_type: 'group', to, type: 'text', text: { body: 'x' } }],
    ['a missing to', { messaging_product: 'whatsapp', type: 'text', text: { body: 'x' } }],
    ['a non-numeric to', { messaging_product: 'whatsapp', to: 'alice', type: 'text', text: { body: 'x' } }],
    ['a numeric (not string) to', { messaging_product: 'whatsapp', to: 15550001234, type: 'text', text: { body: 'x' } }],
    ['an unsupported type', { messaging_product: 'whatsapp', to, type: 'order', order: { catalog_id: '1' } }],
    ['a missing text', { messaging_product: 'whatsapp', to, type: 'text' }],
    ['an empty text body', textMessage(to, '')],
    ['a blank text body', textMessage(to, '   ')],
    ['a text body over 4096 characters', textMessage(to, 'x'.repeat(4097))],
    ['a non-boolean preview_url', { messaging_product: 'whatsapp', to, type: 'text', text: { body: 'x', preview_url: 'yes' } }],
    ['a missing template', { messaging_product: 'whatsapp', to, type: 'template' }],
    ['a template without name', { messaging_product: 'whatsapp', to, type: 'template', template: { language: { code: 'en_US' } } }],
    ['a template without language code', { messaging_product: 'whatsapp', to, type: 'template', template: { name: 'hello_world', language: {} } }],
    [
      'components that are not an array',
      { messaging_product: 'whatsapp', to, type: 'template', template: { name: 'hello_world', language: { code: 'en_US' }, components: {} } },
    ],
    ['a parameter without text', templateMessage(to, 'welcome', 'en_US', [''])],
    ['a parameter with a new line', templateMessage(to, 'welcome', 'en_US', ['Ana\nBob'])],
    ['a non-string biz_opaque_callback_data', textMessage(to, 'x', { biz_opaque_callback_data: 42 })],
    ['a biz_opaque_callback_data over 512 characters', textMessage(to, 'x', { biz_opaque_callback_data: 'x'.repeat(513) })],
    ['a body that is not an object', [1, 2]],
    ['an empty body', undefined],
  ])('answers 100 Invalid parameter for %s', async (_label, body) => {
    expectGraphError(await send(body), 400, 100, '(#100) Invalid parameter');
  });

  it('answers 100 for malformed JSON', async () => {
    const reply = await send('{"messaging_product": "whatsapp",');
    expectGraphError(reply, 400, 100, '(#100) Invalid parameter');
    expect(reply.body.error.error_data.details).toMatch(/JSON/);
  });

  it('answers a non-numeric phone number id like Graph answers an unknown object', async () => {
    const reply = await request(messagesUrl('not-a-number'), 'POST', textMessage(recipient(), 'x'));
    expect(reply.status).toBe(400);
    expect(reply.body.error).toMatchObject({ code: 100, type: 'GraphMethodException', error_subcode: 33 });
  });
});

describe('fault injection', () => {
  const faultsUrl = () => `${simulator.url}/_simulate/faults`;

  it('answers the current settings and resets them', async () => {
    const defaults = {
      rate_limit_share: 0,
      server_error_share: 0,
      duplicate_statuses: false,
      reorder_statuses: false,
      fail_next: 0,
      status_interval_ms: 20,
      no_webhooks: false,
      skip_delivered: false,
      statuses_in_one_post: false,
      upload_error: false,
      timeout_share: 0,
      pair_limit_share: 0,
      pair_limit_ms: 0,
      held_share: 0,
      account_error_code: 0,
      fail_status: null,
      onboarding_fault: null,
    };
    expect(await request(faultsUrl(), 'GET', undefined, null)).toEqual({ status: 200, body: defaults });
    const updated = await request(faultsUrl(), 'POST', { duplicate_statuses: true, rate_limit_share: 0.5, status_interval_ms: 5 }, null);
    expect(updated).toEqual({ status: 200, body: { ...defaults, duplicate_statuses: true, rate_limit_share: 0.5, status_interval_ms: 5 } });
    expect((await request(faultsUrl(), 'GET', undefined, null)).body).toEqual(updated.body);
    expect(await request(faultsUrl(), 'DELETE', undefined, null)).toEqual({ status: 200, body: defaults });
  });

  it('account_error_code: every send answers that error as the platform words it (133010: 400 "Account not registered", as field logs quote it)', async () => {
    await request(faultsUrl(), 'POST', { account_error_code: 133010 }, null);
    try {
      const reply = await send(textMessage(recipient(), 'Hi'));
      expect(reply.status).toBe(400);
      expect(reply.body.error).toMatchObject({ code: 133010, type: 'OAuthException', message: '(#133010) Account not registered' });
    } finally {
      await request(faultsUrl(), 'DELETE', undefined, null);
    }
  });

  it.each([
    [{ rate_limit_share: 2 }],
    [{ fail_status: { code: 131049, share: 1.5 } }],
    [{ fail_status: { code: 'x', share: 1 } }],
    [{ fail_status: { code: 131049 } }],
    [{ fail_next: -1 }],
    [{ fail_next: 1.5 }],
    [{ duplicate_statuses: 'yes' }],
    [{ fail_next: 1, bogus: true }],
    [[1]],
    ['{bad'],
  ])('rejects %j with 400 and changes nothing', async (body) => {
    await request(faultsUrl(), 'POST', { fail_next: 3 }, null);
    const reply = await request(faultsUrl(), 'POST', body, null);
    expect(reply.status).toBe(400);
    expect(reply.body.error.code).toBe(100);
    expect((await request(faultsUrl(), 'GET', undefined, null)).body.fail_next).toBe(3);
  });

  it('fail_next: the next N sends answer 429 with code 130429, are not recorded, then sends succeed', async () => {
    await request(faultsUrl(), 'POST', { fail_next: 2 }, null);
    const to = recipient();
    for (let i = 0; i < 2; i++) {
      const reply = await send(textMessage(to, 'Hi'));
      expect(reply.status).toBe(429);
      expect(reply.body.error).toEqual({
        message: '(#130429) Rate limit hit',
        type: 'OAuthException',
        code: 130429,
        error_data: { messaging_product: 'whatsapp', details: expect.any(String) },
        fbtrace_id: expect.any(String),
      });
    }
    expect((await request(faultsUrl(), 'GET', undefined, null)).body.fail_next).toBe(0);
    expect(await sentTo(to)).toEqual([]);
    expect((await send(textMessage(to, 'Hi'))).status).toBe(200);
    expect(await sentTo(to)).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(receiver.received.filter((w) => w.body.entry[0].changes[0].value.statuses?.[0].recipient_id === to)).toHaveLength(3);
  });

  it('pair_limit_ms: a second send to the same recipient within the interval answers 400 / 131056 and is not recorded; others go through', async () => {
    await request(faultsUrl(), 'POST', { pair_limit_ms: 400 }, null);
    const to = recipient();
    expect((await send(textMessage(to, 'One'))).status).toBe(200);
    const refused = await send(textMessage(to, 'Two'));
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 131056, message: '(#131056) (Business Account, Consumer Account) pair rate limit hit' });
    expect((await send(textMessage(recipient(), 'Someone else'))).status).toBe(200);
    expect(await sentTo(to)).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 450));
    expect((await send(textMessage(to, 'Two, later'))).status).toBe(200);
    expect(await sentTo(to)).toHaveLength(2);
  });

  it('held_share 1 answers template sends held_for_quality_assessment', async () => {
    await request(faultsUrl(), 'POST', { held_share: 1 }, null);
    const reply = await send(templateMessage(recipient(), 'hello_world', 'en_US', []));
    expect(reply.status).toBe(200);
    expect(reply.body.messages[0].message_status).toBe('held_for_quality_assessment');
  });

  it('rate_limit_share 1 answers every send 429 130429', async () => {
    await request(faultsUrl(), 'POST', { rate_limit_share: 1 }, null);
    const reply = await send(textMessage(recipient(), 'Hi'));
    expect(reply.status).toBe(429);
    expect(reply.body.error.code).toBe(130429);
  });

  it('server_error_share 1 answers every send 500 with code 131000', async () => {
    await request(faultsUrl(), 'POST', { server_error_share: 1 }, null);
    const reply = await send(templateMessage(recipient(), 'hello_world', 'en_US', []));
    expect(reply.status).toBe(500);
    expect(reply.body.error).toMatchObject({ code: 131000, message: '(#131000) Something went wrong', type: 'OAuthException' });
  });

  it('still checks the token before injecting a fault', async () => {
    await request(faultsUrl(), 'POST', { fail_next: 1 }, null);
    expect((await send(textMessage(recipient(), 'Hi'), 'nope')).status).toBe(401);
    expect((await send(textMessage(recipient(), 'Hi'))).status).toBe(429);
  });
});

describe('/_simulate/messages', () => {
  it('lists every recorded send oldest first without to, and DELETE clears the record', async () => {
    const first = recipient();
    const second = recipient();
    await send(textMessage(first, 'one'));
    await send(textMessage(second, 'two'));
    const all = (await request(`${simulator.url}/_simulate/messages`, 'GET', undefined, null)).body.data as { to: string }[];
    expect(all.map((m) => m.to).slice(-2)).toEqual([first, second]);
    expect(await request(`${simulator.url}/_simulate/messages`, 'DELETE', undefined, null)).toEqual({ status: 200, body: { ok: true } });
    expect((await request(`${simulator.url}/_simulate/messages`, 'GET', undefined, null)).body).toEqual({ data: [] });
  });

  it('answers an unknown /_simulate path 404 without asking for a token', async () => {
    const reply = await request(`${simulator.url}/_simulate/nothing`, 'GET', undefined, null);
    expect(reply.status).toBe(404);
  });
});
