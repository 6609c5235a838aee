import { replaceTemplates, allTemplates } from '#shared/data/template';
import { nowIso } from '#shared/time';
import { useTestApi, type TestWorkspace } from '../support/api';
import { simulatorControl } from '../support/simulator';
import { eventually } from '../support/wait';

const api = useTestApi({ runtime: true, statusIntervalMs: 20 });
const simulator = simulatorControl(() => api.simulator.url);
const workspace = api.workspaceWithTemplates;

const send = (ws: TestWorkspace, body: Record<string, unknown>, headers?: Record<string, string>) =>
  api.call('POST', '/api/v1/messages', { key: ws.key, body, headers });
const message = async (ws: TestWorkspace, id: string) => (await api.call('GET', `/api/v1/messages/${id}`, { key: ws.key })).body.data;
const sentMessage = (ws: TestWorkspace, id: string) =>
  eventually(
    () => message(ws, id),
    (m) => ['sent', 'delivered', 'read'].includes(m.status),
  );
/** The components of the one request the simulator accepted for a number. */
async function platformComponents(to: string) {
  const sends = await eventually(
    () => simulator.sends(to),
    (list) => list.length > 0,
  );
  expect(sends).toHaveLength(1);
  return (sends[0].request.template as { components?: unknown[] }).components;
}

const IMAGE = 'https://cdn.example.com/spring.jpg';

/** Each catalogue template: what the client sends, and the exact request, rendering and content that follow. */
const singles: [string, Record<string, unknown>, unknown[], Record<string, unknown>, string][] = [
  [
    'spring_promo: image header, URL suffix, default quick-reply payload',
    { template: 'spring_promo', variables: ['20%', 'Sunday'], header: { image: { link: IMAGE } }, buttons: [{ index: 0, value: 'ada-20' }] },
    [
      { type: 'header', parameters: [{ type: 'image', image: { link: IMAGE } }] },
      {
        type: 'body',
        parameters: [
          { type: 'text', text: '20%' },
          { type: 'text', text: 'Sunday' },
        ],
      },
      { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: 'ada-20' }] },
      { type: 'button', sub_type: 'quick_reply', index: '1', parameters: [{ type: 'payload', payload: 'Stop promotions' }] },
    ],
    {
      header: { format: 'IMAGE', link: IMAGE, media_id: null },
      body: 'Spring sale: 20% off everything until Sunday.',
      footer: 'Reply STOP to opt out',
      buttons: [
        { index: 0, type: 'URL', text: 'Shop now', value: 'https://shop.example.com/s/ada-20' },
        { index: 1, type: 'QUICK_REPLY', text: 'Stop promotions', value: 'Stop promotions' },
      ],
    },
    'Spring sale: 20% off everything until Sunday.',
  ],
  [
    'login_code: the OTP button defaults to the body code',
    { template: 'login_code', variables: ['482913'] },
    [
      { type: 'body', parameters: [{ type: 'text', text: '482913' }] },
      { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: '482913' }] },
    ],
    {
      header: null,
      body: '482913 is your verification code.',
      footer: 'This code expires in 10 minutes.',
      buttons: [{ index: 0, type: 'OTP', text: 'Copy code', value: '482913' }],
    },
    '482913 is your verification code.',
  ],
  [
    'delivery_window: named parameters in header and body',
    { template: 'delivery_window', variables: { order_id: 'A-1', start: '9:00', end: '12:00' }, header: { text: 'Ada' } },
    [
      { type: 'header', parameters: [{ type: 'text', parameter_name: 'customer', text: 'Ada' }] },
      {
        type: 'body',
        parameters: [
          { type: 'text', parameter_name: 'order_id', text: 'A-1' },
          { type: 'text', parameter_name: 'start', text: '9:00' },
          { type: 'text', parameter_name: 'end', text: '12:00' },
        ],
      },
    ],
    {
      header: { format: 'TEXT', text: 'Delivery for Ada' },
      body: 'Your order A-1 arrives between 9:00 and 12:00.',
      footer: null,
      buttons: [{ index: 0, type: 'PHONE_NUMBER', text: 'Call us', value: '+15550100100' }],
    },
    'Your order A-1 arrives between 9:00 and 12:00.',
  ],
  [
    'invoice_ready: document header by media id, with a file name',
    { template: 'invoice_ready', variables: ['INV-7'], header: { document: { media_id: '1234567890', filename: 'invoice-7.pdf' } } },
    [
      { type: 'header', parameters: [{ type: 'document', document: { id: '1234567890', filename: 'invoice-7.pdf' } }] },
      { type: 'body', parameters: [{ type: 'text', text: 'INV-7' }] },
    ],
    {
      header: { format: 'DOCUMENT', link: null, media_id: '1234567890', filename: 'invoice-7.pdf' },
      body: 'Your invoice INV-7 is ready.',
      footer: null,
      buttons: [],
    },
    'Your invoice INV-7 is ready.',
  ],
  [
    'store_visit: location header',
    {
      template: 'store_visit',
      variables: ['Main Street'],
      header: { location: { latitude: 51.5, longitude: -0.12, name: 'Main Street', address: '1 Main St' } },
    },
    [
      { type: 'header', parameters: [{ type: 'location', location: { latitude: 51.5, longitude: -0.12, name: 'Main Street', address: '1 Main St' } }] },
      { type: 'body', parameters: [{ type: 'text', text: 'Main Street' }] },
    ],
    {
      header: { format: 'LOCATION', latitude: 51.5, longitude: -0.12, name: 'Main Street', address: '1 Main St' },
      body: 'See you at our Main Street store!',
      footer: null,
      buttons: [],
    },
    'See you at our Main Street store!',
  ],
  [
    'coupon_drop: video header and a copy-code button',
    { template: 'coupon_drop', variables: ['Ada'], header: { video: { link: 'https://cdn.example.com/c.mp4' } }, buttons: [{ index: 0, value: 'SAVE20' }] },
    [
      { type: 'header', parameters: [{ type: 'video', video: { link: 'https://cdn.example.com/c.mp4' } }] },
      { type: 'body', parameters: [{ type: 'text', text: 'Ada' }] },
      { type: 'button', sub_type: 'copy_code', index: '0', parameters: [{ type: 'coupon_code', coupon_code: 'SAVE20' }] },
    ],
    {
      header: { format: 'VIDEO', link: 'https://cdn.example.com/c.mp4', media_id: null },
      body: 'Here is your coupon, Ada.',
      footer: null,
      buttons: [{ index: 0, type: 'COPY_CODE', text: 'Copy offer code', value: 'SAVE20' }],
    },
    'Here is your coupon, Ada.',
  ],
  [
    'holiday_hours: a fixed text header takes no parameter',
    { template: 'holiday_hours', variables: ['Monday'] },
    [{ type: 'body', parameters: [{ type: 'text', text: 'Monday' }] }],
    { header: { format: 'TEXT', text: 'Holiday hours' }, body: 'We are closed on Monday.', footer: null, buttons: [] },
    'We are closed on Monday.',
  ],
];

describe('rich templates, singly', () => {
  let ws: TestWorkspace;
  beforeAll(async () => (ws = await workspace()));

  it.each(singles.map((c, i) => [...c, `1415555${String(2100 + i)}`] as const))('%s', async (_name, fields, components, rendered, content, to) => {
    const reply = await send(ws, { to: `+${to}`, ...fields });
    expect(reply.status).toBe(202);
    expect(await platformComponents(to)).toEqual(components);
    const sent = await sentMessage(ws, reply.body.data.message_id);
    expect(sent.rendered).toEqual(rendered);
    expect(sent.content).toBe(content);
    expect(sent.template_parameters).toEqual({
      header: fields.header ?? null,
      variables: Array.isArray(fields.variables) ? fields.variables : fields.variables,
      buttons: expect.any(Array),
    });
  });
});

describe('rich templates in campaigns, each catalogue template', () => {
  let ws: TestWorkspace;
  beforeAll(async () => (ws = await workspace()));

  it.each(singles.map((c, i) => [...c, i] as const))('%s', async (_name, fields, components, rendered, content, i) => {
    const { template, variables, header, buttons } = fields;
    const own = `1415555${String(2400 + 2 * i)}`;
    const shared = `1415555${String(2401 + 2 * i)}`;
    const campaign = (await api.call('POST', '/api/v1/campaigns', { key: ws.key, body: { name: `c-${template}`, template_name: template } })).body.data;
    const launch = await api.call('POST', `/api/v1/campaigns/${campaign.id}/launch`, {
      key: ws.key,
      body: {
        recipients: [{ phone: `+${own}`, variables, header, buttons }, { phone: `+${shared}` }],
        template_variables: variables,
        template_header: header,
        template_buttons: buttons,
      },
    });
    expect(launch.status).toBe(202);
    // Own values and the same values shared give the same request, rendering and content.
    expect(await platformComponents(own)).toEqual(components);
    expect(await platformComponents(shared)).toEqual(components);
    await eventually(
      async () => (await api.call('GET', `/api/v1/campaigns/${campaign.id}/results`, { key: ws.key })).body.data,
      (r) => r.status === 'completed',
      30_000,
    );
    const listed = (await api.call('GET', `/api/v1/messages?campaign_id=${campaign.id}`, { key: ws.key })).body.data;
    expect(listed).toHaveLength(2);
    for (const item of listed) {
      const one = await message(ws, item.id);
      expect(one.rendered).toEqual(rendered);
      expect(one.content).toBe(content);
    }
  });
});

describe('bad rich-template input: nothing is sent', () => {
  let ws: TestWorkspace;
  beforeAll(async () => (ws = await workspace()));

  const cases: [string, Record<string, unknown>, number, string, string[]][] = [
    [
      'a missing media header',
      { template: 'spring_promo', variables: ['a', 'b'], buttons: [{ index: 0, value: 'x' }] },
      422,
      'template_variables_mismatch',
      ['header'],
    ],
    [
      'a header the template does not take',
      { template: 'order_update', variables: ['a', 'b'], header: { text: 'x' } },
      422,
      'template_variables_mismatch',
      ['header'],
    ],
    [
      'a header for a fixed text header',
      { template: 'holiday_hours', variables: ['a'], header: { text: 'x' } },
      422,
      'template_variables_mismatch',
      ['header'],
    ],
    [
      'a header of the wrong kind',
      { template: 'coupon_drop', variables: ['a'], header: { image: { link: IMAGE } }, buttons: [{ index: 0, value: 'C' }] },
      422,
      'template_variables_mismatch',
      ['header'],
    ],
    [
      'a non-https media link',
      { template: 'spring_promo', variables: ['a', 'b'], header: { image: { link: 'http://cdn.example.com/a.jpg' } } },
      400,
      'validation_error',
      ['header.image.link'],
    ],
    [
      'both a link and a media id',
      { template: 'spring_promo', variables: ['a', 'b'], header: { image: { link: IMAGE, media_id: '1' } } },
      400,
      'validation_error',
      ['header.image'],
    ],
    [
      'a latitude out of range',
      { template: 'store_visit', variables: ['a'], header: { location: { latitude: 91, longitude: 0 } } },
      400,
      'validation_error',
      ['header.location.latitude'],
    ],
    [
      'a button index that does not exist',
      { template: 'login_code', variables: ['1'], buttons: [{ index: 4, value: 'x' }] },
      422,
      'template_variables_mismatch',
      ['buttons.0.index'],
    ],
    [
      'a value for a button that takes none',
      { template: 'delivery_window', variables: { order_id: 'a', start: 'b', end: 'c' }, header: { text: 'x' }, buttons: [{ index: 0, value: 'x' }] },
      422,
      'template_variables_mismatch',
      ['buttons.0.value'],
    ],
    [
      'a missing URL suffix',
      { template: 'spring_promo', variables: ['a', 'b'], header: { image: { link: IMAGE } } },
      422,
      'template_variables_mismatch',
      ['buttons.0.value'],
    ],
    [
      'positional variables for a named template',
      { template: 'delivery_window', variables: ['a', 'b', 'c'], header: { text: 'x' } },
      422,
      'template_variables_mismatch',
      ['variables'],
    ],
    [
      'named variables for a positional template',
      { template: 'order_update', variables: { customer: 'a', order: 'b' } },
      422,
      'template_variables_mismatch',
      ['variables'],
    ],
    [
      'unknown and missing placeholder names',
      { template: 'delivery_window', variables: { order_id: 'a', start: 'b', finish: 'c' }, header: { text: 'x' } },
      422,
      'template_variables_mismatch',
      ['variables.end', 'variables.finish'],
    ],
    ['a 2,000-character value', { template: 'welcome', variables: ['x'.repeat(2000)] }, 400, 'validation_error', ['variables']],
    [
      'every problem at once',
      { template: 'spring_promo', variables: ['a'], header: { video: { link: IMAGE } }, buttons: [{ index: 7, value: 'x' }] },
      422,
      'template_variables_mismatch',
      ['variables', 'header', 'buttons.0.index', 'buttons.0.value'],
    ],
  ];

  it.each(cases.map((c, i) => [...c, `1415555${String(2200 + i)}`] as const))('%s', async (_name, fields, status, code, detailFields, to) => {
    const reply = await send(ws, { to: `+${to}`, ...fields });
    expect(reply.status).toBe(status);
    expect(reply.body.error.code).toBe(code);
    expect(reply.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual([...detailFields].sort());
    expect(await simulator.sends(to)).toEqual([]);
  });

  it('replays an Idempotency-Key only for the same header and buttons', async () => {
    const body = {
      to: '+14155552290',
      template: 'coupon_drop',
      variables: ['Ada'],
      header: { video: { link: 'https://cdn.example.com/c.mp4' } },
      buttons: [{ index: 0, value: 'A' }],
    };
    const first = await send(ws, body, { 'Idempotency-Key': 'rich-1' });
    const replay = await send(ws, body, { 'Idempotency-Key': 'rich-1' });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.data).toEqual(first.body.data);
    const otherButton = await send(ws, { ...body, buttons: [{ index: 0, value: 'B' }] }, { 'Idempotency-Key': 'rich-1' });
    expect(otherButton.status).toBe(422);
    expect(otherButton.body.error.code).toBe('idempotency_key_reused');
    await platformComponents('14155552290');
  });
});

describe('rich templates in a campaign', () => {
  it('sends per-recipient and shared header and buttons, with macros, and completes with exact metrics', async () => {
    const ws = await workspace();
    const contact = (await api.call('POST', '/api/v1/contacts', { key: ws.key, body: { phone_number: '+14155552303', name: 'Cleo Contact' } })).body.data;
    const campaign = (await api.call('POST', '/api/v1/campaigns', { key: ws.key, body: { name: 'Spring', template_name: 'spring_promo' } })).body.data;
    const launch = await api.call('POST', `/api/v1/campaigns/${campaign.id}/launch`, {
      key: ws.key,
      body: {
        recipients: [
          { phone: '+14155552301', name: 'Ada', variables: ['20%', 'Sunday'], buttons: [{ index: 0, value: 'ada' }] },
          {
            phone: '+14155552302',
            name: 'Bo',
            header: { image: { link: 'https://cdn.example.com/bo.jpg' } },
            buttons: [
              { index: 0, value: '{{phone}}' },
              { index: 1, value: 'STOP-{{name}}' },
            ],
          },
        ],
        contact_ids: [contact.id],
        template_variables: ['{{name}}', 'Friday'],
        template_header: { image: { link: IMAGE } },
        template_buttons: [{ index: 0, value: 'all' }],
      },
    });
    expect(launch.status).toBe(202);
    expect(launch.body.data.total_recipients).toBe(3);

    expect(await platformComponents('14155552301')).toEqual([
      { type: 'header', parameters: [{ type: 'image', image: { link: IMAGE } }] },
      {
        type: 'body',
        parameters: [
          { type: 'text', text: '20%' },
          { type: 'text', text: 'Sunday' },
        ],
      },
      { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: 'ada' }] },
      { type: 'button', sub_type: 'quick_reply', index: '1', parameters: [{ type: 'payload', payload: 'Stop promotions' }] },
    ]);
    expect(await platformComponents('14155552302')).toEqual([
      { type: 'header', parameters: [{ type: 'image', image: { link: 'https://cdn.example.com/bo.jpg' } }] },
      {
        type: 'body',
        parameters: [
          { type: 'text', text: 'Bo' },
          { type: 'text', text: 'Friday' },
        ],
      },
      { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: '14155552302' }] },
      { type: 'button', sub_type: 'quick_reply', index: '1', parameters: [{ type: 'payload', payload: 'STOP-Bo' }] },
    ]);
    expect(await platformComponents('14155552303')).toEqual([
      { type: 'header', parameters: [{ type: 'image', image: { link: IMAGE } }] },
      {
        type: 'body',
        parameters: [
          { type: 'text', text: 'Cleo Contact' },
          { type: 'text', text: 'Friday' },
        ],
      },
      { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: 'all' }] },
      { type: 'button', sub_type: 'quick_reply', index: '1', parameters: [{ type: 'payload', payload: 'Stop promotions' }] },
    ]);

    const done = await eventually(
      async () => (await api.call('GET', `/api/v1/campaigns/${campaign.id}/results`, { key: ws.key })).body.data,
      (r) => r.status === 'completed',
      30_000,
    );
    const { metrics } = done;
    expect(metrics.total_messages).toBe(3);
    expect(metrics.pending + metrics.sent + metrics.delivered + metrics.read + metrics.failed).toBe(3);
    expect(metrics.failed).toBe(0);

    const listed = (await api.call('GET', `/api/v1/messages?campaign_id=${campaign.id}`, { key: ws.key })).body.data;
    const bo = await message(ws, listed.find((m: { phone_number: string }) => m.phone_number === '14155552302').id);
    expect(bo.content).toBe('Spring sale: Bo off everything until Friday.');
    expect(bo.rendered.buttons[0]).toEqual({ index: 0, type: 'URL', text: 'Shop now', value: 'https://shop.example.com/s/14155552302' });
  });

  it('validates every recipient before anything is stored: the campaign stays a draft and nothing is sent', async () => {
    const ws = await workspace();
    const campaign = (await api.call('POST', '/api/v1/campaigns', { key: ws.key, body: { name: 'Bad', template_name: 'spring_promo' } })).body.data;
    const launch = await api.call('POST', `/api/v1/campaigns/${campaign.id}/launch`, {
      key: ws.key,
      body: {
        recipients: [
          { phone: '+14155552311', variables: ['a', 'b'], header: { image: { link: IMAGE } }, buttons: [{ index: 0, value: 'ok' }] },
          { phone: '+14155552312', variables: ['a', 'b'], header: { video: { link: IMAGE } } },
          { phone: '+14155552313', variables: ['a'] },
        ],
      },
    });
    expect(launch.status).toBe(422);
    expect(launch.body.error.code).toBe('template_variables_mismatch');
    expect(launch.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(
      ['recipients.1.header', 'recipients.1.buttons.0.value', 'recipients.2.variables', 'recipients.2.header', 'recipients.2.buttons.0.value'].sort(),
    );
    expect((await api.call('GET', `/api/v1/campaigns/${campaign.id}`, { key: ws.key })).body.data.status).toBe('draft');
    for (const to of ['14155552311', '14155552312', '14155552313']) expect(await simulator.sends(to)).toEqual([]);
  });
});

describe('template sync', () => {
  it('follows every page of the platform list, and a template gone from the platform disappears', async () => {
    const ws = await api.workspace();
    const sync = await api.call('POST', '/api/v1/templates/sync', { key: ws.key });
    // The simulator lists five templates a page: thirteen means all three pages were read.
    expect(sync.body.data).toEqual({ synced_count: 13 });
    const stored = await allTemplates(ws.id);
    await replaceTemplates(ws.id, undefined, [...stored, { ...stored[0], id: '999', name: 'retired_offer' }], nowIso());
    expect((await api.call('GET', '/api/v1/templates?name=retired_offer', { key: ws.key })).body.data).toHaveLength(1);
    await api.call('POST', '/api/v1/templates/sync', { key: ws.key });
    expect((await api.call('GET', '/api/v1/templates?name=retired_offer', { key: ws.key })).body.data).toEqual([]);
    expect((await allTemplates(ws.id)).map((t) => t.name)).not.toContain('retired_offer');
  });
});
