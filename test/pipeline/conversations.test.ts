import { useTestApi, type TestWorkspace } from '../support/api';
import { simulatorControl } from '../support/simulator';
import { eventually } from '../support/wait';

const api = useTestApi({ runtime: true, statusIntervalMs: 20 });
const simulator = simulatorControl(() => api.simulator.url);

const send = (ws: TestWorkspace, body: Record<string, unknown>) => api.call('POST', '/api/v1/messages', { key: ws.key, body });
const message = async (ws: TestWorkspace, id: string) => (await api.call('GET', `/api/v1/messages/${id}`, { key: ws.key })).body.data;
const inboundList = async (ws: TestWorkspace, phone: string) =>
  (await api.call('GET', `/api/v1/messages?direction=inbound&phone=${phone}`, { key: ws.key })).body.data;

/** The customer writes first, which opens the window; answers our id of their message. */
async function customerWrites(ws: TestWorkspace, from: string, body: Record<string, unknown> = { text: 'hello' }): Promise<{ id: string; wamid: string }> {
  const known = new Set((await inboundList(ws, from)).map((m: { id: string }) => m.id));
  const { wamid } = await simulator.inbound({ phone_number_id: ws.phoneNumberId, from, ...body });
  // Messages of the same second sort in no particular order: the new one is the id not seen before.
  const fresh = (l: { id: string }[]) => l.find((m) => !known.has(m.id));
  const list = await eventually(
    () => inboundList(ws, from),
    (l) => fresh(l) !== undefined,
  );
  return { id: fresh(list)!.id, wamid };
}

/** The one request the simulator accepted for a number, as it arrived. */
async function platformRequest(to: string, count = 1): Promise<Record<string, unknown>> {
  const sends = await eventually(
    () => simulator.sends(to),
    (list) => list.length >= count,
  );
  expect(sends).toHaveLength(count);
  return sends[count - 1].request;
}

const sent = (ws: TestWorkspace, id: string) =>
  eventually(
    () => message(ws, id),
    (m) => ['sent', 'delivered', 'read'].includes(m.status),
  );

const IMAGE = 'https://cdn.example.com/parcel.jpg';

/** Each outbound kind: what the client sends, the exact platform request that follows, and `content`. */
const kinds: [string, Record<string, unknown>, Record<string, unknown>, string][] = [
  [
    'text',
    { text: 'Your parcel left the depot.' },
    { type: 'text', text: { body: 'Your parcel left the depot.', preview_url: false } },
    'Your parcel left the depot.',
  ],
  [
    'image by link with caption',
    { image: { link: IMAGE, caption: 'Your parcel' } },
    { type: 'image', image: { link: IMAGE, caption: 'Your parcel' } },
    'Your parcel',
  ],
  ['video by media id', { video: { media_id: '1166846181421424' } }, { type: 'video', video: { id: '1166846181421424' } }, ''],
  ['audio', { audio: { link: 'https://cdn.example.com/note.ogg' } }, { type: 'audio', audio: { link: 'https://cdn.example.com/note.ogg' } }, ''],
  [
    'document with file name and caption',
    { document: { link: 'https://cdn.example.com/inv.pdf', filename: 'invoice-7.pdf', caption: 'Invoice 7' } },
    { type: 'document', document: { link: 'https://cdn.example.com/inv.pdf', caption: 'Invoice 7', filename: 'invoice-7.pdf' } },
    'Invoice 7',
  ],
  ['sticker', { sticker: { media_id: '798882015472548' } }, { type: 'sticker', sticker: { id: '798882015472548' } }, ''],
  [
    'location',
    { location: { latitude: 52.3676, longitude: 4.9041, name: 'Depot', address: 'Dock 4, Amsterdam' } },
    { type: 'location', location: { latitude: 52.3676, longitude: 4.9041, name: 'Depot', address: 'Dock 4, Amsterdam' } },
    'Depot, Dock 4, Amsterdam',
  ],
  [
    'interactive reply buttons',
    {
      interactive: {
        type: 'button',
        header: 'Delivery',
        body: 'When should we come?',
        footer: 'Reply by tapping',
        buttons: [
          { id: 'am', title: 'Morning' },
          { id: 'pm', title: 'Afternoon' },
        ],
      },
    },
    {
      type: 'interactive',
      interactive: {
        type: 'button',
        header: { type: 'text', text: 'Delivery' },
        body: { text: 'When should we come?' },
        footer: { text: 'Reply by tapping' },
        action: {
          buttons: [
            { type: 'reply', reply: { id: 'am', title: 'Morning' } },
            { type: 'reply', reply: { id: 'pm', title: 'Afternoon' } },
          ],
        },
      },
    },
    'When should we come?',
  ],
  [
    'interactive list',
    {
      interactive: {
        type: 'list',
        body: 'Pick a slot',
        button: 'Slots',
        sections: [
          { title: 'Monday', rows: [{ id: 'mon-am', title: 'Morning', description: '8:00 to 12:00' }] },
          { title: 'Tuesday', rows: [{ id: 'tue-pm', title: 'Afternoon' }] },
        ],
      },
    },
    {
      type: 'interactive',
      interactive: {
        type: 'list',
        body: { text: 'Pick a slot' },
        action: {
          button: 'Slots',
          sections: [
            { title: 'Monday', rows: [{ id: 'mon-am', title: 'Morning', description: '8:00 to 12:00' }] },
            { title: 'Tuesday', rows: [{ id: 'tue-pm', title: 'Afternoon' }] },
          ],
        },
      },
    },
    'Pick a slot',
  ],
];

describe('outbound message kinds (contract §13)', () => {
  let ws: TestWorkspace;
  beforeAll(async () => {
    ws = await api.workspaceWithTemplates();
  });

  it.each(kinds.map((k, i) => [...k, i] as const))('%s: sends the platform request the Cloud API documents', async (_name, body, expected, content, i) => {
    const to = `+1415556${String(1000 + i)}`;
    await customerWrites(ws, to.slice(1));
    const reply = await send(ws, { to, ...body });
    expect(reply.status).toBe(202);
    const kind = Object.keys(body)[0];
    expect(reply.body.data).toMatchObject({ status: 'queued', message_type: kind, template: null, language: null });
    expect(await platformRequest(to.slice(1))).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: to.slice(1),
      biz_opaque_callback_data: reply.body.data.message_id,
      ...expected,
    });
    const stored = await sent(ws, reply.body.data.message_id);
    expect(stored).toMatchObject({ message_type: kind, content });
  });

  it('refuses every kind but templates outside the window', async () => {
    for (const [, body] of kinds) {
      const reply = await send(ws, { to: '+14155562000', ...body });
      expect(reply.status).toBe(422);
      expect(reply.body.error.code).toBe('session_window_closed');
    }
    expect(await simulator.sends('14155562000')).toEqual([]);
  });

  it('quotes a message with reply_to and reacts to one, by their platform ids', async () => {
    const customer = '14155562100';
    const photo = await customerWrites(ws, customer, { type: 'image', image: { caption: 'Broken parcel' } });
    const reply = await send(ws, { to: `+${customer}`, text: 'Sorry! We will replace it.', reply_to: photo.id });
    expect(reply.status).toBe(202);
    expect((await platformRequest(customer)).context).toEqual({ message_id: photo.wamid });
    expect((await message(ws, reply.body.data.message_id)).context).toEqual({ message_id: photo.id, provider_message_id: photo.wamid });

    const reaction = await send(ws, { to: `+${customer}`, reaction: { message_id: photo.id, emoji: '😢' } });
    expect(reaction.status).toBe(202);
    expect(await platformRequest(customer, 2)).toMatchObject({ type: 'reaction', reaction: { message_id: photo.wamid, emoji: '😢' } });
    expect(await message(ws, reaction.body.data.message_id)).toMatchObject({
      message_type: 'reaction',
      content: '😢',
      reaction: { emoji: '😢', message_id: photo.id },
    });
    // The platform reports a reaction `sent`, and nothing after.
    await sent(ws, reaction.body.data.message_id);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await message(ws, reaction.body.data.message_id)).status).toBe('sent');

    // reply_to is taken with any kind (contract §13); with a reaction it is kept, not sent: the platform takes no context with one.
    const removal = await send(ws, { to: `+${customer}`, reaction: { message_id: photo.id, emoji: '' }, reply_to: photo.id });
    expect(await message(ws, removal.body.data.message_id)).toMatchObject({ context: { message_id: photo.id } });
    expect(removal.status).toBe(202);
    const removed = await platformRequest(customer, 3);
    expect(removed).toMatchObject({ type: 'reaction', reaction: { message_id: photo.wamid, emoji: '' } });
    expect(removed.context).toBeUndefined();
  });

  it("answers 404 for reply_to or a reaction on another workspace's message, and sends nothing", async () => {
    const other = await api.workspaceWithTemplates();
    const theirs = await customerWrites(other, '14155562200');
    const customer = '14155562201';
    await customerWrites(ws, customer);
    const quoted = await send(ws, { to: `+${customer}`, text: 'hi', reply_to: theirs.id });
    expect(quoted.status).toBe(404);
    expect(quoted.body.error.code).toBe('not_found');
    const reacted = await send(ws, { to: `+${customer}`, reaction: { message_id: theirs.id, emoji: '👍' } });
    expect(reacted.status).toBe(404);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await simulator.sends(customer)).toEqual([]);
  });

  it('answers 409 for a reply to our own message that has not been sent yet', async () => {
    const customer = '14155562300';
    await customerWrites(ws, customer);
    await simulator.faults({ rate_limit_share: 1 });
    try {
      const queued = await send(ws, { to: `+${customer}`, text: 'first' });
      const reply = await send(ws, { to: `+${customer}`, text: 'second', reply_to: queued.body.data.message_id });
      expect(reply.status).toBe(409);
      expect(reply.body.error.code).toBe('invalid_state');
    } finally {
      await simulator.resetFaults();
    }
  });
});

describe('bad outbound input (contract §13)', () => {
  let ws: TestWorkspace;
  beforeAll(async () => {
    ws = await api.workspaceWithTemplates();
  });

  const buttons = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `b${i}`, title: `Option ${i}` }));
  const rows = (n: number, id = (i: number) => `r${i}`) => Array.from({ length: n }, (_, i) => ({ id: id(i), title: `Row ${i}` }));
  const cases: [string, Record<string, unknown>, string][] = [
    ['an http:// media link', { image: { link: 'http://cdn.example.com/a.jpg' } }, 'image.link'],
    ['a media link and id together', { image: { link: IMAGE, media_id: '123' } }, 'image'],
    ['media without link or id', { video: { caption: 'x' } }, 'video'],
    ['a caption on audio', { audio: { link: 'https://cdn.example.com/a.ogg', caption: 'no' } }, 'audio.caption'],
    ['a caption on a sticker', { sticker: { media_id: '1', caption: 'no' } }, 'sticker.caption'],
    ['a caption over 1024 characters', { image: { link: IMAGE, caption: 'x'.repeat(1025) } }, 'image.caption'],
    ['4 buttons', { interactive: { type: 'button', body: 'b', buttons: buttons(4) } }, 'interactive.buttons'],
    ['no buttons', { interactive: { type: 'button', body: 'b', buttons: [] } }, 'interactive.buttons'],
    [
      'a button title of 21 characters',
      { interactive: { type: 'button', body: 'b', buttons: [{ id: 'a', title: 'x'.repeat(21) }] } },
      'interactive.buttons.0.title',
    ],
    [
      'duplicate button ids',
      {
        interactive: {
          type: 'button',
          body: 'b',
          buttons: [
            { id: 'a', title: 'A' },
            { id: 'a', title: 'B' },
          ],
        },
      },
      'interactive.buttons',
    ],
    [
      'duplicate button titles',
      {
        interactive: {
          type: 'button',
          body: 'b',
          buttons: [
            { id: 'a', title: 'Yes' },
            { id: 'b', title: 'Yes' },
          ],
        },
      },
      'interactive.buttons',
    ],
    ['a button body over 1024', { interactive: { type: 'button', body: 'x'.repeat(1025), buttons: buttons(1) } }, 'interactive.body'],
    [
      '11 rows',
      {
        interactive: {
          type: 'list',
          body: 'b',
          button: 'Go',
          sections: [
            { title: 'A', rows: rows(6) },
            { title: 'B', rows: rows(5, (i) => `s${i}`) },
          ],
        },
      },
      'interactive.sections',
    ],
    [
      'duplicate row ids',
      { interactive: { type: 'list', body: 'b', button: 'Go', sections: [{ title: 'A', rows: rows(2, () => 'same') }] } },
      'interactive.sections',
    ],
    [
      'a row title of 25 characters',
      { interactive: { type: 'list', body: 'b', button: 'Go', sections: [{ rows: [{ id: 'a', title: 'x'.repeat(25) }] }] } },
      'interactive.sections.0.rows.0.title',
    ],
    [
      'a row description of 73 characters',
      { interactive: { type: 'list', body: 'b', button: 'Go', sections: [{ rows: [{ id: 'a', title: 'A', description: 'x'.repeat(73) }] }] } },
      'interactive.sections.0.rows.0.description',
    ],
    ['a header over 60', { interactive: { type: 'button', header: 'x'.repeat(61), body: 'b', buttons: buttons(1) } }, 'interactive.header'],
    ['an unknown interactive type', { interactive: { type: 'carousel', body: 'b' } }, 'interactive.type'],
    ['latitude 91', { location: { latitude: 91, longitude: 0 } }, 'location.latitude'],
    ['longitude -181', { location: { latitude: 0, longitude: -181 } }, 'location.longitude'],
    ['a reaction without a message id', { reaction: { emoji: '👍' } }, 'reaction.message_id'],
    ['a reaction that is not an emoji', { reaction: { message_id: '0190a6a4-6b4e-7000-8000-000000000000', emoji: 'yes' } }, 'reaction.emoji'],
    ['two kinds at once', { text: 'x', image: { link: IMAGE } }, 'template'],
    ['reply_to that is not an id', { text: 'x', reply_to: 'wamid.abc' }, 'reply_to'],
    ['variables on a session message', { text: 'x', variables: ['a'] }, 'variables'],
  ];

  it.each(cases)('%s → 400 validation_error, nothing sent', async (_name, body, field) => {
    const reply = await send(ws, { to: '+14155563000', ...body });
    expect(reply.status).toBe(400);
    expect(reply.body.error.code).toBe('validation_error');
    expect(reply.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
  });

  afterAll(async () => {
    expect(await simulator.sends('14155563000')).toEqual([]);
  });
});
