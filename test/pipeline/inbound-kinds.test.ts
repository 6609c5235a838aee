import { createHash } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { startReceiver } from '../support/receiver';
import { TEST_PLATFORM, useTestApi, type TestWorkspace } from '../support/api';
import { handler as processPlatformWebhook } from '#functions/platform-webhooks/process-worker';
import { optedOutUsers } from '#shared/data/contact-claims';
import { customerMessage, inboundQueueEvent, messagesWebhook, postPlatformWebhook } from '../support/platform-webhook';
import { simulatorControl } from '../support/simulator';
import { eventually } from '../support/wait';

process.env.MEDIA_BACKOFF_SCALE = '0.001';
process.env.MEDIA_DOWNLOAD_TIMEOUT_MS = '300';
const api = useTestApi({ runtime: true, statusIntervalMs: 20 });
const simulator = simulatorControl(() => api.simulator.url);

const get = async (ws: TestWorkspace, path: string) => (await api.call('GET', path, { key: ws.key })).body;
const message = async (ws: TestWorkspace, id: string) => (await get(ws, `/api/v1/messages/${id}`)).data;
const inbound = (ws: TestWorkspace, phone: string) => get(ws, `/api/v1/messages?direction=inbound&phone=${phone}`);
/** Posts one customer message shaped as the platform documents it, and answers it as stored. */
async function receive(ws: TestWorkspace, from: string, body: Record<string, unknown>) {
  const known = new Set((await inbound(ws, from)).data.map((m: { id: string }) => m.id));
  expect(await postPlatformWebhook(api.baseUrl, customerMessage(ws.wabaId, ws.phoneNumberId, from, body))).toBe(200);
  // Messages of the same second sort in no particular order: the new one is the id not seen before.
  const fresh = (l: { data: { id: string }[] }) => l.data.find((m) => !known.has(m.id));
  const list = await eventually(
    () => inbound(ws, from),
    (l) => fresh(l) !== undefined,
  );
  return message(ws, fresh(list)!.id);
}
/** The contact of a number, once the stream has indexed it for search. */
const contactOf = async (ws: TestWorkspace, phone: string) =>
  (
    await eventually(
      async () => (await get(ws, `/api/v1/contacts?search=${phone}`)).data,
      (found) => found.length > 0,
    )
  )[0];
const now = () => String(Math.floor(Date.now() / 1000));
/** A message from a customer the platform names by business-scoped user id alone (a username, the number withheld). */
const fromUserOnly = (ws: TestWorkspace, userId: string, id: string, body: string) =>
  messagesWebhook(ws.wabaId, ws.phoneNumberId, {
    contacts: [{ profile: { name: 'Pablo', username: 'pablo.m' }, user_id: userId }],
    messages: [{ from_user_id: userId, id, timestamp: now(), type: 'text', text: { body } }],
  });

/**
 * Each inbound type as the platform's webhook reference shows it (docs/platform-payloads.md): the
 * `content` and the kind's own field the single-message shape must carry (contract §13).
 */
const types: [string, Record<string, unknown>, string, Record<string, unknown>][] = [
  ['text', { type: 'text', text: { body: 'Where is my parcel?' } }, 'Where is my parcel?', { media: null, location: null }],
  [
    'image with caption',
    {
      type: 'image',
      image: { caption: 'Broken box', mime_type: 'image/jpeg', sha256: 'ofSH1ihOhPDBl+5FH2DIDqDaYh+sQ/NiUfXWHUyQMtQ=', id: '1403838557102741' },
    },
    'Broken box',
    {
      media: {
        media_id: '1403838557102741',
        link: null,
        mime_type: 'image/jpeg',
        // The webhook's base64, kept as hex (shared/platform/media-hash.ts).
        sha256: Buffer.from('ofSH1ihOhPDBl+5FH2DIDqDaYh+sQ/NiUfXWHUyQMtQ=', 'base64').toString('hex'),
        caption: 'Broken box',
        filename: null,
        size: null,
        url: null,
      },
    },
  ],
  [
    'document',
    { type: 'document', document: { caption: 'Receipt', filename: 'receipt.pdf', mime_type: 'application/pdf', sha256: 'abc', id: '3057417384329425' } },
    'Receipt',
    { media: expect.objectContaining({ media_id: '3057417384329425', filename: 'receipt.pdf', caption: 'Receipt' }) },
  ],
  [
    'voice note',
    { type: 'audio', audio: { mime_type: 'audio/ogg; codecs=opus', sha256: 'def', id: '1085541186237474', voice: true } },
    '',
    { media: expect.objectContaining({ media_id: '1085541186237474', caption: null }) },
  ],
  [
    'video',
    { type: 'video', video: { mime_type: 'video/mp4', sha256: 'ghi', id: '2110462579385010' } },
    '',
    { media: expect.objectContaining({ media_id: '2110462579385010' }) },
  ],
  [
    'sticker',
    { type: 'sticker', sticker: { mime_type: 'image/webp', sha256: 'jkl', id: '798882015472548', animated: false } },
    '',
    { media: expect.objectContaining({ mime_type: 'image/webp' }) },
  ],
  [
    'location',
    {
      type: 'location',
      location: {
        latitude: 37.483253479004,
        longitude: -122.14872741699,
        name: 'Main Street Depot',
        address: '1 Main St, Menlo Park',
        url: 'https://depot.example.com',
      },
    },
    'Main Street Depot, 1 Main St, Menlo Park',
    { location: { latitude: 37.483253479004, longitude: -122.14872741699, name: 'Main Street Depot', address: '1 Main St, Menlo Park' } },
  ],
  [
    'contacts',
    {
      type: 'contacts',
      contacts: [
        {
          name: { formatted_name: 'Barbara Johnson', first_name: 'Barbara', last_name: 'Johnson' },
          phones: [{ phone: '+1 (940) 555-1234', wa_id: '19405551234', type: 'HOME' }],
        },
      ],
    },
    '',
    {
      contacts: [
        {
          name: { formatted_name: 'Barbara Johnson', first_name: 'Barbara', last_name: 'Johnson' },
          phones: [{ phone: '+1 (940) 555-1234', wa_id: '19405551234', type: 'HOME' }],
        },
      ],
    },
  ],
  [
    'reply button tap',
    { type: 'interactive', interactive: { type: 'button_reply', button_reply: { id: 'am', title: 'Morning' } } },
    'Morning',
    { interactive: { type: 'button_reply', id: 'am', title: 'Morning', description: null } },
  ],
  [
    'list row choice',
    { type: 'interactive', interactive: { type: 'list_reply', list_reply: { id: 'mon-am', title: 'Morning', description: '8:00 to 12:00' } } },
    'Morning',
    { interactive: { type: 'list_reply', id: 'mon-am', title: 'Morning', description: '8:00 to 12:00' } },
  ],
  [
    'template quick-reply button',
    { type: 'button', button: { text: 'Track it', payload: 'TRACK' } },
    'Track it',
    { button: { text: 'Track it', payload: 'TRACK' } },
  ],
  [
    'unsupported',
    {
      type: 'unsupported',
      errors: [
        { code: 131051, title: 'Message type unknown', message: 'Message type unknown', error_data: { details: 'Message type is currently not supported.' } },
      ],
    },
    '',
    { message_type: 'unsupported' },
  ],
  ['a type the service does not know', { type: 'order', order: { catalog_id: '1', product_items: [] } }, '', { message_type: 'unsupported' }],
  ['a known type with a malformed object', { type: 'location', location: { latitude: 'north' } }, '', { message_type: 'unsupported' }],
];

describe('inbound messages of every platform type (contract §13)', () => {
  let ws: TestWorkspace;
  beforeAll(async () => {
    ws = await api.workspaceWithTemplates();
  });

  it.each(types.map((t, i) => [...t, i] as const))('%s: stored with its content and its own field', async (_name, body, content, fields, i) => {
    const from = `1415557${String(1000 + i)}`;
    const stored = await receive(ws, from, body);
    expect(stored).toMatchObject({ direction: 'inbound', status: 'received', phone_number: from, content, ...fields });
    if (!('message_type' in fields)) expect(stored.message_type).toBe(body.type);
  });

  it('links a reply to our message, and a reaction to it, with the campaign of a campaign message', async () => {
    const customer = '14155571100';
    const campaign = (await api.call('POST', '/api/v1/campaigns', { key: ws.key, body: { name: 'Hours', template_name: 'holiday_hours' } })).body.data;
    await api.call('POST', `/api/v1/campaigns/${campaign.id}/launch`, {
      key: ws.key,
      body: { recipients: [{ phone: `+${customer}` }], template_variables: ['Monday'] },
    });
    const ours = (
      await eventually(
        () => get(ws, `/api/v1/messages?campaign_id=${campaign.id}`),
        (l) => l.data.length === 1,
      )
    ).data[0];
    const sent = await eventually(
      () => message(ws, ours.id),
      (m) => m.provider_message_id !== null,
    );

    const reply = await receive(ws, customer, {
      type: 'text',
      text: { body: 'Open on Tuesday?' },
      context: { from: '15550783881', id: sent.provider_message_id },
    });
    expect(reply.context).toEqual({ message_id: ours.id, provider_message_id: sent.provider_message_id });
    expect(reply.campaign_id).toBe(campaign.id);
    const reaction = await receive(ws, customer, { type: 'reaction', reaction: { message_id: sent.provider_message_id, emoji: '👍' } });
    expect(reaction).toMatchObject({
      message_type: 'reaction',
      content: '👍',
      reaction: { emoji: '👍', message_id: ours.id, provider_message_id: sent.provider_message_id },
      campaign_id: campaign.id,
    });
    const removed = await receive(ws, customer, { type: 'reaction', reaction: { message_id: sent.provider_message_id } });
    expect(removed).toMatchObject({ content: '', reaction: { emoji: '', message_id: ours.id } });
    // The campaign's own list stays its outbound messages (its count trails by the stream's delay).
    const campaignList = await eventually(
      () => get(ws, `/api/v1/messages?campaign_id=${campaign.id}`),
      (list) => list.pagination.totalCount >= 1,
    );
    expect(campaignList.pagination.totalCount).toBe(1);
    expect(campaignList.data.map((m: { direction: string }) => m.direction)).toEqual(['outbound']);
  });

  it('keeps a reply to a message we never sent, with the platform id only', async () => {
    const stored = await receive(ws, '14155571200', { type: 'text', text: { body: 'hm' }, context: { from: '15550783881', id: 'wamid.unknown-to-us' } });
    expect(stored.context).toEqual({ message_id: null, provider_message_id: 'wamid.unknown-to-us' });
    expect(stored.campaign_id).toBeNull();
  });
});

describe('inbound media, copied to the media bucket', () => {
  let ws: TestWorkspace;
  beforeAll(async () => {
    ws = await api.workspaceWithTemplates();
  });

  it('serves the bytes the platform served through a fresh presigned media.url', async () => {
    const customer = '14155572100';
    const { media_id } = await simulator.inbound({ phone_number_id: ws.phoneNumberId, from: customer, type: 'image', image: { caption: 'Broken parcel' } });
    const stored = await eventually(
      async () => (await inbound(ws, customer)).data,
      (l) => l.length === 1,
    );
    const copied = await eventually(
      () => message(ws, stored[0].id),
      (m) => m.media.url !== null,
    );
    expect(copied.media).toMatchObject({ media_id, mime_type: 'image/jpeg', caption: 'Broken parcel', size: expect.any(Number) });

    const object = (await (
      await fetch(`${api.simulator.url}/v26.0/${media_id}`, { headers: { Authorization: `Bearer ${TEST_PLATFORM.access_token}` } })
    ).json()) as { url: string; sha256: string };
    const served = Buffer.from(await (await fetch(object.url, { headers: { Authorization: `Bearer ${TEST_PLATFORM.access_token}` } })).arrayBuffer());
    const downloaded = await fetch(copied.media.url);
    expect(downloaded.status).toBe(200);
    const bytes = Buffer.from(await downloaded.arrayBuffer());
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(createHash('sha256').update(served).digest('hex'));
    expect(copied.media.sha256).toBe(object.sha256);
    expect(new URL(copied.media.url).searchParams.get('X-Amz-Expires')).toBe('900');
    // Signed anew on each read.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await message(ws, stored[0].id)).media.url).not.toBe(copied.media.url);
  });

  it("serves a customer's HTML document only as a download: its link answers attachment, never text/html (contract §22)", async () => {
    const customer = '14155572150';
    const page = '<html><body><script>document.title = "owned"</script></body></html>';
    await simulator.registerMedia({ id: `55500${customer}`, mime_type: 'text/html', data_base64: Buffer.from(page).toString('base64') });
    await simulator.inbound({
      phone_number_id: ws.phoneNumberId,
      from: customer,
      type: 'document',
      document: { id: `55500${customer}`, mime_type: 'text/html', filename: 'invoice.html' },
    });
    const stored = await eventually(
      async () => (await inbound(ws, customer)).data,
      (l) => l.length === 1,
    );
    const copied = await eventually(
      () => message(ws, stored[0].id),
      (m) => m.media.url !== null,
      30_000,
    );
    // The message says what the customer's app declared; the link serves it as an opaque download.
    expect(copied.media.mime_type).toBe('text/html');
    const downloaded = await fetch(copied.media.url);
    expect(downloaded.status).toBe(200);
    expect(downloaded.headers.get('content-disposition')).toBe('attachment');
    expect(downloaded.headers.get('content-type')).toBe('application/octet-stream');
    expect(Buffer.from(await downloaded.arrayBuffer()).toString()).toBe(page);
    expect(new URL(copied.media.url).searchParams.get('response-content-disposition')).toBe('attachment');
  });

  it.each([
    ['answers 404', 'not_found', '404', '14155572200'],
    ['times out', 'timeout', 'unreachable', '14155572201'],
  ] as const)('keeps the message and notes the error when the download %s, after its retries', async (_name, download, error, customer) => {
    await simulator.registerMedia({ id: `55500${customer}`, mime_type: 'image/png', download });
    await simulator.inbound({ phone_number_id: ws.phoneNumberId, from: customer, type: 'image', image: { id: `55500${customer}` } });
    const stored = await eventually(
      async () => (await inbound(ws, customer)).data,
      (l) => l.length === 1,
    );
    const given = await eventually(
      () => message(ws, stored[0].id),
      (m) => m.media.error !== undefined,
      30_000,
    );
    expect(given.media).toMatchObject({ media_id: `55500${customer}`, url: null, error: expect.stringContaining(error) });
  });

  it('notes malformed media metadata from the platform as an error, and keeps the message', async () => {
    const customer = '14155572300';
    // A media id the platform does not know: GET /{media_id} is refused.
    const stored = await receive(ws, customer, { type: 'document', document: { id: 'no-such-media', mime_type: 'application/pdf' } });
    const given = await eventually(
      () => message(ws, stored.id),
      (m) => m.media.error !== undefined,
      30_000,
    );
    expect(given.media.url).toBeNull();
    expect(given.content).toBe('');
  });
});

describe('opt-out (contract §13)', () => {
  it('a "Stop promotions" tap on a spring_promo message opts out, links the campaign, and the next spring_promo fails that number while UTILITY goes out', async () => {
    const ws = await api.workspaceWithTemplates();
    const customer = '14155573100';
    const contact = (await api.call('POST', '/api/v1/contacts', { key: ws.key, body: { phone_number: `+${customer}`, name: 'Ada' } })).body.data;
    expect(contact.opted_out_at).toBeNull();
    const launch = async (template: string, body: Record<string, unknown>) => {
      const campaign = (await api.call('POST', '/api/v1/campaigns', { key: ws.key, body: { name: template, template_name: template } })).body.data;
      expect((await api.call('POST', `/api/v1/campaigns/${campaign.id}/launch`, { key: ws.key, body: { contact_ids: [contact.id], ...body } })).status).toBe(
        202,
      );
      return eventually(
        async () => (await api.call('GET', `/api/v1/campaigns/${campaign.id}/results`, { key: ws.key })).body.data,
        (r) => r.status === 'completed',
        30_000,
      );
    };
    const promo = {
      template_variables: ['20%', 'Sunday'],
      template_header: { image: { link: 'https://cdn.example.com/s.jpg' } },
      template_buttons: [{ index: 0, value: 'ada' }],
    };
    const first = await launch('spring_promo', promo);
    const ours = (await get(ws, `/api/v1/messages?campaign_id=${first.campaign_id}`)).data[0];
    const sent = await eventually(
      () => message(ws, ours.id),
      (m) => m.provider_message_id !== null,
    );

    await simulator.inbound({
      phone_number_id: ws.phoneNumberId,
      from: customer,
      type: 'button',
      button: { text: 'Stop promotions', payload: 'Stop promotions' },
      context: sent.provider_message_id,
    });
    const tap = (
      await eventually(
        () => inbound(ws, customer),
        (l) => l.data.length === 1,
      )
    ).data[0];
    expect(await message(ws, tap.id)).toMatchObject({
      message_type: 'button',
      content: 'Stop promotions',
      campaign_id: first.campaign_id,
      context: { message_id: ours.id },
    });
    const optedOut = await eventually(
      () => get(ws, `/api/v1/contacts/${contact.id}`),
      (c) => c.data.opted_out_at !== null,
    );
    expect(optedOut.data.opted_out_at).toEqual(expect.any(String));

    const second = await launch('spring_promo', promo);
    expect(second.metrics).toMatchObject({ total_messages: 1, failed: 1, sent: 0 });
    const refused = (await get(ws, `/api/v1/messages?campaign_id=${second.campaign_id}`)).data[0];
    expect((await message(ws, refused.id)).error).toEqual({ code: 'recipient_opted_out', title: expect.any(String) });

    const utility = await launch('holiday_hours', { template_variables: ['Monday'] });
    expect(utility.metrics).toMatchObject({ total_messages: 1, failed: 0 });
    expect((await simulator.sends(customer)).map((s) => (s.request.template as { name: string }).name)).toEqual(['spring_promo', 'holiday_hours']);

    const single = await api.call('POST', '/api/v1/messages', { key: ws.key, body: { to: `+${customer}`, template: 'welcome', variables: ['Ada'] } });
    expect(single.status).toBe(422);
    expect(single.body.error.code).toBe('recipient_opted_out');

    const cleared = await api.call('PATCH', `/api/v1/contacts/${contact.id}`, { key: ws.key, body: { opted_out: false } });
    expect(cleared.body.data.opted_out_at).toBeNull();
    expect((await api.call('POST', '/api/v1/messages', { key: ws.key, body: { to: `+${customer}`, template: 'welcome', variables: ['Ada'] } })).status).toBe(
      202,
    );
  });

  it('a number that opts out after the fan-out stored its marketing message, before it went, ends failed recipient_opted_out and is never sent it (contract §15)', async () => {
    const probeScale = process.env.PAUSE_PROBE_SCALE;
    process.env.PAUSE_PROBE_SCALE = '0.01';
    try {
      const ws = await api.workspaceWithTemplates();
      const customer = '14155573300';
      // Sends refused at the account level hold the campaign's message, stored and queued (contract §16).
      await simulator.faults({ account_error_code: 190 });
      const campaign = (await api.call('POST', '/api/v1/campaigns', { key: ws.key, body: { name: 'Held', template_name: 'welcome' } })).body.data;
      const launched = await api.call('POST', `/api/v1/campaigns/${campaign.id}/launch`, {
        key: ws.key,
        body: { recipients: [{ phone: `+${customer}`, variables: ['Ada'] }] },
      });
      expect(launched.body.data).toMatchObject({ total_recipients: 1, excluded_opted_out: 0 });
      const results = async () => (await get(ws, `/api/v1/campaigns/${campaign.id}/results`)).data;
      await eventually(results, (r) => r.paused_reason !== null, 30_000);

      await simulator.inbound({ phone_number_id: ws.phoneNumberId, from: customer, text: 'STOP' });
      await eventually(
        () => contactOf(ws, customer),
        (c) => Boolean(c?.opted_out_at),
      );
      await simulator.resetFaults();

      const done = await eventually(results, (r) => r.status === 'completed', 30_000);
      expect(done.metrics).toMatchObject({ total_messages: 1, failed: 1, sent: 0 });
      const [held] = (await get(ws, `/api/v1/messages?campaign_id=${campaign.id}`)).data;
      expect((await message(ws, held.id)).error).toEqual({ code: 'recipient_opted_out', title: expect.any(String) });
      expect(await simulator.sends(customer)).toEqual([]);
    } finally {
      await simulator.resetFaults();
      if (probeScale === undefined) delete process.env.PAUSE_PROBE_SCALE;
      else process.env.PAUSE_PROBE_SCALE = probeScale;
    }
  }, 60_000);

  it('a stop word as text opts out, trimmed and in any case; other text does not', async () => {
    const ws = await api.workspaceWithTemplates();
    await receive(ws, '14155573200', { type: 'text', text: { body: 'please stop sending' } });
    expect((await contactOf(ws, '14155573200')).opted_out_at).toBeNull();
    await receive(ws, '14155573200', { type: 'text', text: { body: '  unsubscribe ' } });
    expect((await contactOf(ws, '14155573200')).opted_out_at).toEqual(expect.any(String));
  });
});

describe('template status pushed by the platform (contract §13)', () => {
  it('updates the template at once and refuses PAUSED and DISABLED templates as not approved', async () => {
    const ws = await api.workspaceWithTemplates();
    await simulator.templateStatus({ waba_id: ws.wabaId, name: 'welcome', language: 'en_US', event: 'PAUSED' });
    await eventually(
      async () => (await get(ws, '/api/v1/templates?status=PAUSED')).data,
      (list) => list.some((t: { name: string }) => t.name === 'welcome'),
    );
    const refused = await api.call('POST', '/api/v1/messages', { key: ws.key, body: { to: '+14155574100', template: 'welcome', variables: ['x'] } });
    expect(refused.body.error.code).toBe('template_not_approved');
    await simulator.templateStatus({ waba_id: ws.wabaId, name: 'welcome', language: 'en_US', event: 'APPROVED' });
    await eventually(
      async () => (await api.call('POST', '/api/v1/messages', { key: ws.key, body: { to: '+14155574100', template: 'welcome', variables: ['x'] } })).status,
      (s) => s === 202,
    );
  });

  it('ignores updates for business accounts of no workspace', async () => {
    const payload = {
      object: 'whatsapp_business_account',
      entry: [
        {
          id: '999',
          time: 1,
          changes: [
            {
              field: 'message_template_status_update',
              value: { event: 'APPROVED', message_template_id: 1, message_template_name: 'x', message_template_language: 'en_US', reason: 'NONE' },
            },
          ],
        },
      ],
    };
    expect(await postPlatformWebhook(api.baseUrl, payload)).toBe(200);
  });
});

describe('who the customer is, as the platform says it (contract §16)', () => {
  it('a Mexican customer writing as 521… can be answered at 52… and at 521…, one contact and one conversation', async () => {
    const ws = await api.workspaceWithTemplates();
    const stored = await receive(ws, '5215512345678', { type: 'text', text: { body: 'Hola' } });
    expect(stored.phone_number).toBe('525512345678');
    for (const to of ['+52 55 1234 5678', '+5215512345678']) {
      const reply = await api.call('POST', '/api/v1/messages', { key: ws.key, body: { to, text: 'Hola!' } });
      expect(reply.status).toBe(202);
      expect(reply.body.data.recipient).toBe('525512345678');
    }
    const contacts = (await get(ws, '/api/v1/contacts')).data;
    expect(contacts.map((c: { phone_number: string }) => c.phone_number)).toEqual(['525512345678']);
    const sends = await eventually(
      () => simulator.sends('525512345678'),
      (l) => l.length === 2,
    );
    expect(sends.map((s) => s.to)).toEqual(['5215512345678', '5215512345678']);
  });

  it('a Brazilian id without the ninth digit files under the dialable number', async () => {
    const ws = await api.workspaceWithTemplates();
    const stored = await receive(ws, '553187654321', { type: 'text', text: { body: 'Oi' } });
    expect(stored.phone_number).toBe('5531987654321');
    expect((await api.call('POST', '/api/v1/messages', { key: ws.key, body: { to: '+55 31 98765-4321', text: 'Oi!' } })).status).toBe(202);
  });

  it('a customer known only by a business-scoped user id is stored and filed under a contact of that id, never dropped', async () => {
    const ws = await api.workspaceWithTemplates();
    const fromUser = (id: string, body: string) => fromUserOnly(ws, 'US.13491208655302741918', id, body);
    expect(await postPlatformWebhook(api.baseUrl, fromUser('wamid.user-only-1', 'hi from a username'))).toBe(200);
    expect(await postPlatformWebhook(api.baseUrl, fromUser('wamid.user-only-2', 'me again'))).toBe(200);
    const list = await eventually(
      () => get(ws, '/api/v1/messages?direction=inbound'),
      (l) => l.data.length === 2,
    );
    const stored = await Promise.all(list.data.map((m: { id: string }) => message(ws, m.id)));
    expect(stored.map((m) => m.content).sort()).toEqual(['hi from a username', 'me again']);
    for (const m of stored) expect(m).toMatchObject({ user_id: 'US.13491208655302741918', phone_number: '' });
    // One contact for both messages, found by the user id.
    const contacts = (await get(ws, '/api/v1/contacts')).data;
    expect(contacts).toEqual([expect.objectContaining({ name: 'Pablo', phone_number: '', user_id: 'US.13491208655302741918' })]);
  });

  it('moves the contact when the customer changes number, without opening a window for the new one', async () => {
    const ws = await api.workspaceWithTemplates();
    await receive(ws, '14155575100', { type: 'text', text: { body: 'hi' } });
    const payload = customerMessage(ws.wabaId, ws.phoneNumberId, '14155575100', {
      type: 'system',
      system: { body: 'Sheena changed from 14155575100 to 14155575101', new_wa_id: '14155575101', type: 'user_changed_number' },
    });
    expect(await postPlatformWebhook(api.baseUrl, payload)).toBe(200);
    await eventually(
      () => contactOf(ws, '14155575101'),
      (c) => c?.phone_number === '14155575101',
    );
    const reply = await api.call('POST', '/api/v1/messages', { key: ws.key, body: { to: '+14155575101', text: 'hello?' } });
    expect(reply.body.error.code).toBe('session_window_closed');
  });

  it('moves the user id with the number (Aug 2026: previous_user_id), so the customer writing by the new user id alone is the same contact', async () => {
    const ws = await api.workspaceWithTemplates();
    const [oldUser, newUser] = ['US.13491208655302741900', 'US.13491208655302741901'];
    const first = messagesWebhook(ws.wabaId, ws.phoneNumberId, {
      contacts: [{ profile: { name: 'Sheena' }, wa_id: '14155575400', user_id: oldUser }],
      messages: [{ from: '14155575400', from_user_id: oldUser, id: 'wamid.identity-1', timestamp: now(), type: 'text', text: { body: 'hi' } }],
    });
    expect(await postPlatformWebhook(api.baseUrl, first)).toBe(200);
    await eventually(
      () => contactOf(ws, '14155575400'),
      (c) => c?.user_id === oldUser,
    );
    const system = {
      body: 'User Sheena changed from 14155575400 to 14155575401',
      wa_id: '14155575401',
      user_id: newUser,
      previous_user_id: oldUser,
      type: 'user_changed_number',
    };
    const change = messagesWebhook(ws.wabaId, ws.phoneNumberId, {
      messages: [{ from: '14155575400', id: 'wamid.identity-2', timestamp: now(), type: 'system', system }],
    });
    expect(await postPlatformWebhook(api.baseUrl, change)).toBe(200);
    const moved = await eventually(
      () => contactOf(ws, '14155575401'),
      (c) => c?.user_id === newUser,
    );
    expect(moved.phone_number).toBe('14155575401');

    expect(await postPlatformWebhook(api.baseUrl, fromUserOnly(ws, newUser, 'wamid.identity-3', 'still me'))).toBe(200);
    const list = await eventually(
      () => get(ws, '/api/v1/messages?direction=inbound'),
      (l) => l.data.length === 2,
    );
    // The new user id alone found the contact, and with it the customer's new number.
    expect(list.data.map((m: { phone_number: string }) => m.phone_number).sort()).toEqual(['14155575400', '14155575401']);
    expect((await get(ws, '/api/v1/contacts')).data).toEqual([expect.objectContaining({ id: moved.id, phone_number: '14155575401', user_id: newUser })]);
  });

  it('moves a username customer to a new user id reported alone (user_changed_user_id), unless another contact holds that id', async () => {
    const ws = await api.workspaceWithTemplates();
    const [first, second, taken] = ['US.13491208655302741910', 'US.13491208655302741911', 'US.13491208655302741912'];
    const contacts = () => get(ws, '/api/v1/contacts?pageSize=100');
    expect(await postPlatformWebhook(api.baseUrl, fromUserOnly(ws, first, 'wamid.user-id-1', 'hi'))).toBe(200);
    const [customer] = (
      await eventually(
        () => contacts(),
        (l) => l.data.length === 1,
      )
    ).data;
    const userIdChange = (id: string, previous: string, next: string) =>
      messagesWebhook(ws.wabaId, ws.phoneNumberId, {
        messages: [{ id, timestamp: now(), type: 'system', system: { user_id: next, previous_user_id: previous, type: 'user_changed_user_id' } }],
      });
    expect(await postPlatformWebhook(api.baseUrl, userIdChange('wamid.user-id-2', first, second))).toBe(200);
    await eventually(
      () => contacts(),
      (l) => l.data[0]?.user_id === second,
    );
    expect(await postPlatformWebhook(api.baseUrl, fromUserOnly(ws, second, 'wamid.user-id-3', 'again'))).toBe(200);
    await eventually(
      () => get(ws, '/api/v1/messages?direction=inbound'),
      (l) => l.data.length === 2,
    );
    expect((await contacts()).data).toEqual([expect.objectContaining({ id: customer.id, phone_number: '', user_id: second })]);
    // A message sent under the old id, delivered late, is still this customer's.
    expect(await postPlatformWebhook(api.baseUrl, fromUserOnly(ws, first, 'wamid.user-id-late', 'sent before the change'))).toBe(200);
    await eventually(
      () => get(ws, '/api/v1/messages?direction=inbound'),
      (l) => l.data.length === 3,
    );
    expect((await contacts()).data).toEqual([expect.objectContaining({ id: customer.id, user_id: second })]);
    // The customer's opt-out holds under the old id too.
    expect((await api.call('PATCH', `/api/v1/contacts/${customer.id}`, { key: ws.key, body: { opted_out: true } })).status).toBe(200);
    const promo = {
      template: 'spring_promo',
      variables: ['20%', 'Sunday'],
      header: { image: { link: 'https://cdn.example.com/spring.jpg' } },
      buttons: [{ index: 0, value: 'x' }],
    };
    for (const userId of [first, second]) {
      const refused = await api.call('POST', '/api/v1/messages', { key: ws.key, body: { to_user_id: userId, ...promo } });
      expect([userId, refused.status, refused.body.error?.code]).toEqual([userId, 422, 'recipient_opted_out']);
    }

    // Another customer already holds the id: each contact keeps its own (the worker itself, so the outcome is settled when it returns).
    expect(await postPlatformWebhook(api.baseUrl, fromUserOnly(ws, taken, 'wamid.user-id-4', 'someone else'))).toBe(200);
    await eventually(
      () => contacts(),
      (l) => l.data.length === 2,
    );
    expect(await processPlatformWebhook(inboundQueueEvent(userIdChange('wamid.user-id-5', second, taken)))).toEqual({ batchItemFailures: [] });
    const after = (await contacts()).data as { id: string; user_id: string }[];
    expect(after.find((c) => c.id === customer.id)?.user_id).toBe(second);
    expect(after.find((c) => c.id !== customer.id)?.user_id).toBe(taken);
  });

  it("moves only the contact's own user id, applies a change before the messages after it in one webhook, and a deleted contact leaves its ids free", async () => {
    const ws = await api.workspaceWithTemplates();
    const [own, othersOld, othersNew] = ['US.13491208655302741930', 'US.13491208655302741931', 'US.13491208655302741932'];
    const contacts = async () => (await get(ws, '/api/v1/contacts?pageSize=100')).data as { id: string; phone_number: string; user_id?: string }[];
    const withNumber = messagesWebhook(ws.wabaId, ws.phoneNumberId, {
      contacts: [{ profile: { name: 'Sheena' }, wa_id: '14155575500', user_id: own }],
      messages: [{ from: '14155575500', from_user_id: own, id: 'wamid.own-1', timestamp: now(), type: 'text', text: { body: 'hi' } }],
    });
    expect(await processPlatformWebhook(inboundQueueEvent(withNumber))).toEqual({ batchItemFailures: [] });
    expect(await processPlatformWebhook(inboundQueueEvent(fromUserOnly(ws, othersOld, 'wamid.other-1', 'hi')))).toEqual({ batchItemFailures: [] });
    // The number's contact holds another user id than the one the change names: its number moves, its user id stays.
    const system = { wa_id: '14155575501', user_id: othersNew, previous_user_id: othersOld, type: 'user_changed_number' };
    const change = messagesWebhook(ws.wabaId, ws.phoneNumberId, {
      messages: [{ from: '14155575500', id: 'wamid.own-2', timestamp: now(), type: 'system', system }],
    });
    expect(await processPlatformWebhook(inboundQueueEvent(change))).toEqual({ batchItemFailures: [] });
    expect((await contacts()).map((c) => [c.phone_number, c.user_id]).sort()).toEqual([
      ['', othersOld],
      ['14155575501', own],
    ]);

    // One webhook: the change, then a message under the new id alone (listed first, as a batch may be): one contact.
    const at = Number(now());
    const batch = messagesWebhook(ws.wabaId, ws.phoneNumberId, {
      contacts: [{ profile: { name: 'Pablo' }, user_id: othersNew }],
      messages: [
        { from_user_id: othersNew, id: 'wamid.other-2', timestamp: String(at + 1), type: 'text', text: { body: 'new id' } },
        {
          id: 'wamid.other-3',
          timestamp: String(at),
          type: 'system',
          system: { user_id: othersNew, previous_user_id: othersOld, type: 'user_changed_user_id' },
        },
      ],
    });
    expect(await processPlatformWebhook(inboundQueueEvent(batch))).toEqual({ batchItemFailures: [] });
    const moved = (await contacts()).find((c) => c.phone_number === '');
    expect((await contacts()).map((c) => c.user_id).sort()).toEqual([own, othersNew]);

    // Deleted, the contact frees its current and previous ids: the customer writing again under either is a new contact.
    expect((await api.call('DELETE', `/api/v1/contacts/${moved!.id}`, { key: ws.key })).status).toBe(200);
    expect(await processPlatformWebhook(inboundQueueEvent(fromUserOnly(ws, othersOld, 'wamid.other-4', 'back')))).toEqual({ batchItemFailures: [] });
    expect((await contacts()).map((c) => c.user_id).sort()).toEqual([own, othersOld]);
  });

  it("a late or repeated report of an earlier change moves nothing back; a message from the old number in the change's second is filed before it", async () => {
    const ws = await api.workspaceWithTemplates();
    const ids = Array.from({ length: 13 }, (_, i) => `US.134912086553027419${String(40 + i)}`);
    const apply = async (payload: Record<string, unknown>) =>
      expect(await processPlatformWebhook(inboundQueueEvent(payload))).toEqual({ batchItemFailures: [] });
    const changeOfNumber = (id: string, from: string, to: string, previous: string, next: string, at = now()) => ({
      from,
      id,
      timestamp: at,
      type: 'system',
      system: { wa_id: to, user_id: next, previous_user_id: previous, type: 'user_changed_number' },
    });
    const numberChange = (...change: Parameters<typeof changeOfNumber>) =>
      messagesWebhook(ws.wabaId, ws.phoneNumberId, { messages: [changeOfNumber(...change)] });
    const contacts = async () => (await get(ws, '/api/v1/contacts?pageSize=100')).data as { id: string; phone_number: string; user_id?: string }[];
    await apply(
      messagesWebhook(ws.wabaId, ws.phoneNumberId, {
        contacts: [{ profile: { name: 'Sheena' }, wa_id: '14155575600', user_id: ids[0] }],
        messages: [{ from: '14155575600', from_user_id: ids[0], id: 'wamid.late-0', timestamp: now(), type: 'text', text: { body: 'hi' } }],
      }),
    );
    const first = numberChange('wamid.late-1', '14155575600', '14155575601', ids[0], ids[1]);
    await apply(first);
    await apply(numberChange('wamid.late-2', '14155575601', '14155575602', ids[1], ids[2]));
    await apply(first);
    expect(await contacts()).toEqual([expect.objectContaining({ phone_number: '14155575602', user_id: ids[2] })]);
    // Both replaced ids lead to the contact, and its opt-out holds for them read together.
    expect((await api.call('PATCH', `/api/v1/contacts/${(await contacts())[0].id}`, { key: ws.key, body: { opted_out: true } })).status).toBe(200);
    expect(await optedOutUsers(ws.id, [ids[0], ids[1], ids[2]])).toEqual(new Set([ids[0], ids[1], ids[2]]));

    // The customer's message from the old number, in the same second as the change and listed after it: filed under the old number, one contact.
    const at = now();
    const lastOne = { from: '14155575602', id: 'wamid.late-4', timestamp: at, type: 'text', text: { body: 'last one' } };
    const change = messagesWebhook(ws.wabaId, ws.phoneNumberId, {
      messages: [changeOfNumber('wamid.late-3', '14155575602', '14155575603', ids[2], ids[3], at), lastOne],
    });
    await apply(change);
    expect(await contacts()).toEqual([expect.objectContaining({ phone_number: '14155575603', user_id: ids[3] })]);
    expect((await inbound(ws, '14155575602')).data).toHaveLength(1);

    // Ten replaced ids are kept (ids 2 to 11 after twelve moves): the older ones' claims go with them, and those ids are free again.
    for (let i = 3; i < 12; i++)
      await apply(
        numberChange(`wamid.late-move-${i}`, `141555756${String(i).padStart(2, '0')}`, `141555756${String(i + 1).padStart(2, '0')}`, ids[i], ids[i + 1]),
      );
    expect(await contacts()).toEqual([expect.objectContaining({ phone_number: '14155575612', user_id: ids[12] })]);
    await apply(fromUserOnly(ws, ids[2], 'wamid.late-5', 'still reaches the contact'));
    expect(await contacts()).toHaveLength(1);
    await apply(fromUserOnly(ws, ids[0], 'wamid.late-6', 'a new contact'));
    expect((await contacts()).map((c) => c.user_id).sort()).toEqual([ids[0], ids[12]]);
  });

  it('two contacts reported onto one new user id at once: one gets it, the other keeps its own (the user claim decides, not a read before the write)', async () => {
    const ws = await api.workspaceWithTemplates();
    const [left, right, contested] = ['US.13491208655302741920', 'US.13491208655302741921', 'US.13491208655302741922'];
    for (const [userId, id] of [
      [left, 'wamid.contested-1'],
      [right, 'wamid.contested-2'],
    ]) {
      expect(await postPlatformWebhook(api.baseUrl, fromUserOnly(ws, userId, id, 'hi'))).toBe(200);
    }
    const contacts = () => get(ws, '/api/v1/contacts?pageSize=100');
    await eventually(
      () => contacts(),
      (l) => l.data.length === 2,
    );
    // Each worker reads the contested id as free before any writes it.
    const moves = Array.from({ length: 12 }, (_, i) =>
      messagesWebhook(ws.wabaId, ws.phoneNumberId, {
        messages: [
          {
            id: `wamid.contested-move-${i}`,
            timestamp: now(),
            type: 'system',
            system: { user_id: contested, previous_user_id: i % 2 ? left : right, type: 'user_changed_user_id' },
          },
        ],
      }),
    );
    const outcomes = await Promise.all(moves.map((payload) => processPlatformWebhook(inboundQueueEvent(payload))));
    expect(outcomes).toEqual(Array(12).fill({ batchItemFailures: [] }));
    const userIds = ((await contacts()).data as { user_id: string }[]).map((c) => c.user_id).sort();
    expect([[left, contested].sort(), [right, contested].sort()]).toContainEqual(userIds);
  });

  it('applies edits and deletions to the message they refer to', async () => {
    const ws = await api.workspaceWithTemplates();
    const original = await receive(ws, '14155575200', { type: 'text', text: { body: 'Deliver at 9' } });
    const edit = customerMessage(ws.wabaId, ws.phoneNumberId, '14155575200', {
      type: 'edit',
      edit: { original_message_id: original.provider_message_id, message: { type: 'text', text: { body: 'Deliver at 10' } } },
    });
    expect(await postPlatformWebhook(api.baseUrl, edit)).toBe(200);
    const edited = await eventually(
      () => message(ws, original.id),
      (m) => m.metadata.edited_at !== null,
    );
    expect(edited.content).toBe('Deliver at 10');
    const revoke = customerMessage(ws.wabaId, ws.phoneNumberId, '14155575200', {
      type: 'revoke',
      revoke: { original_message_id: original.provider_message_id },
    });
    expect(await postPlatformWebhook(api.baseUrl, revoke)).toBe(200);
    const revoked = await eventually(
      () => message(ws, original.id),
      (m) => m.metadata.revoked_at !== null,
    );
    expect(revoked.content).toBe('');
    // Counted once (the count trails by the stream's delay): an edit and a revocation are no new messages.
    await eventually(
      () => inbound(ws, '14155575200'),
      (l) => l.pagination.totalCount >= 1,
    );
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await inbound(ws, '14155575200')).pagination.totalCount).toBe(1);
  });

  it('keeps the details of a failure the platform reports (a number ending in 9997)', async () => {
    const ws = await api.workspaceWithTemplates();
    const reply = await api.call('POST', '/api/v1/messages', { key: ws.key, body: { to: '+14155579997', template: 'welcome', variables: ['x'] } });
    const failed = await eventually(
      () => message(ws, reply.body.data.message_id),
      (m) => m.status === 'failed',
    );
    expect(failed.error).toEqual({
      code: 131049,
      title: 'This message was not delivered to maintain healthy ecosystem engagement.',
      details: 'In order to maintain a healthy ecosystem engagement, the message failed to be delivered.',
    });
  });

  it('records played without moving the status, and keeps error subcodes and details', async () => {
    const ws = await api.workspaceWithTemplates();
    const customer = '14155575300';
    await receive(ws, customer, { type: 'text', text: { body: 'send a voice note' } });
    const voice = (await api.call('POST', '/api/v1/messages', { key: ws.key, body: { to: `+${customer}`, audio: { link: 'https://cdn.example.com/v.ogg' } } }))
      .body.data;
    const read = await eventually(
      () => message(ws, voice.message_id),
      (m) => m.status === 'read',
    );
    const played = { id: read.provider_message_id, status: 'played', timestamp: String(Math.floor(Date.now() / 1000)), recipient_id: customer };
    expect(await postPlatformWebhook(api.baseUrl, messagesWebhook(ws.wabaId, ws.phoneNumberId, { statuses: [played] }))).toBe(200);
    const after = await eventually(
      () => message(ws, voice.message_id),
      (m) => m.metadata.played_at !== null,
    );
    expect(after.status).toBe('read');

    // Held back by the platform's throughput limit, the message is still queued when a failure report names it.
    await simulator.faults({ rate_limit_share: 1 });
    try {
      const failing = (await api.call('POST', '/api/v1/messages', { key: ws.key, body: { to: `+${customer}`, text: 'x' } })).body.data;
      const failed = {
        id: 'wamid.reported-failure',
        status: 'failed',
        timestamp: String(Math.floor(Date.now() / 1000)),
        recipient_id: customer,
        biz_opaque_callback_data: failing.message_id,
        errors: [
          {
            code: 131049,
            title: 'This message was not delivered to maintain healthy ecosystem engagement.',
            message: 'This message was not delivered to maintain healthy ecosystem engagement.',
            error_subcode: 2494010,
            error_data: { details: 'In order to maintain a healthy ecosystem engagement, the message failed to be delivered.' },
          },
        ],
      };
      expect(await postPlatformWebhook(api.baseUrl, messagesWebhook(ws.wabaId, ws.phoneNumberId, { statuses: [failed] }))).toBe(200);
      const final = await eventually(
        () => message(ws, failing.message_id),
        (m) => m.status === 'failed',
      );
      expect(final.error).toEqual({ code: 131049, title: failed.errors[0].title, subcode: 2494010, details: failed.errors[0].error_data.details });
    } finally {
      await simulator.resetFaults();
    }
  });
});

describe('events of this issue, as subscribers get them', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver?.stop());

  it('template.updated carries the template; contact.updated fires when a stop word opts the customer out', async () => {
    const ws = await api.workspaceWithTemplates();
    const sub = (
      await api.call('POST', '/api/v1/webhooks', {
        key: ws.key,
        body: { url: receiver.url, events: ['template.updated', 'contact.updated', 'message.received'] },
      })
    ).body.data;
    const events = () =>
      receiver.received.map(
        (r) => new Webhook(sub.signing_secret).verify(r.body, r.headers as Record<string, string>) as { type: string; data: Record<string, any> },
      );

    await simulator.templateStatus({ waba_id: ws.wabaId, name: 'order_update', language: 'es_ES', event: 'DISABLED' });
    const [updated] = (
      await eventually(
        async () => events(),
        (e) => e.some((x) => x.type === 'template.updated'),
      )
    ).filter((x) => x.type === 'template.updated');
    expect(updated.data).toMatchObject({ name: 'order_update', language: 'es_ES', status: 'DISABLED', category: 'UTILITY', content: expect.any(String) });

    await receive(ws, '14155576100', { type: 'text', text: { body: 'Hi' } });
    await receive(ws, '14155576100', { type: 'text', text: { body: 'STOP' } });
    const changed = await eventually(
      async () => events().filter((x) => x.type === 'contact.updated'),
      (e) => e.length > 0,
    );
    expect(changed[0].data).toMatchObject({ phone_number: '14155576100', opted_out_at: expect.any(String) });
    // Another message from a known, named, opted-out contact changes nothing about it.
    await receive(ws, '14155576100', { type: 'text', text: { body: 'thanks' } });
    await eventually(
      async () => events().filter((x) => x.type === 'message.received'),
      (e) => e.length === 3,
    );
    expect(events().filter((x) => x.type === 'contact.updated')).toHaveLength(1);
  });
});
