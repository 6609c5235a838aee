import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { useTestApi, type TestWorkspace } from '../support/api';
import { simulatorControl } from '../support/simulator';
import { eventually } from '../support/wait';

/**
 * Contract §18 end to end: templates created, edited and deleted through the API, against the
 * simulator (which uploads, reviews and pushes as the platform does), on this suite's table.
 */
const api = useTestApi({ runtime: true, statusIntervalMs: 20 });
const simulator = simulatorControl(() => api.simulator.url);

/** A tiny PNG (1×1) and a local file server for header examples (local mode allows http and loopback). */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
let files: Server;
let filesUrl: string;
beforeAll(async () => {
  files = createServer((req, res) => {
    if (req.url === '/autumn.png') return res.writeHead(200, { 'Content-Type': 'image/png' }).end(PNG);
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => files.close(resolve)));

let ws: TestWorkspace;
beforeAll(async () => {
  ws = await api.workspace();
});

const call = (method: string, path: string, body?: unknown) => api.call(method, path, { key: ws.key, body });
const listed = async (status: string, name?: string) =>
  (await call('GET', `/api/v1/templates?status=${status}${name ? `&name=${name}` : ''}`)).body.data as Record<string, any>[];
const imageHeader = (example: Record<string, unknown>) => ({ type: 'HEADER', format: 'IMAGE', example });
const promo = (name: string, header: Record<string, unknown>) => ({
  name,
  language: 'en_US',
  category: 'MARKETING',
  components: [
    header,
    { type: 'BODY', text: 'Autumn sale: {{1}} off until {{2}}.', example: { body_text: [['30%', 'Friday']] } },
    { type: 'FOOTER', text: 'Reply STOP to opt out' },
    {
      type: 'BUTTONS',
      buttons: [
        { type: 'URL', text: 'Shop now', url: 'https://shop.example.com/a/{{1}}', example: ['https://shop.example.com/a/autumn'] },
        { type: 'QUICK_REPLY', text: 'Not interested' },
      ],
    },
  ],
});
const textOnly = (name: string, language = 'en_US') => ({
  name,
  language,
  category: 'UTILITY',
  components: [{ type: 'BODY', text: 'Your code is ready, {{1}}.', example: { body_text: [['Ada']] } }],
});

describe('a template created through the API', () => {
  it('is PENDING with its image header and URL button, approved by the push, then sent with its components', async () => {
    const created = await call('POST', '/api/v1/templates', promo('autumn_promo', imageHeader({ header_url: `${filesUrl}/autumn.png` })));
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      name: 'autumn_promo',
      status: 'PENDING',
      category: 'MARKETING',
      header: { format: 'IMAGE', text: null },
      footer: 'Reply STOP to opt out',
      placeholders: ['1', '2'],
      buttons: [
        { index: 0, type: 'URL', url: 'https://shop.example.com/a/{{1}}', placeholders: ['1'] },
        { index: 1, type: 'QUICK_REPLY', text: 'Not interested' },
      ],
    });
    expect(created.body.data.id).toMatch(/^\d+$/);
    expect(await listed('PENDING', 'autumn_promo')).toEqual([created.body.data]);

    await simulator.templateStatus({ waba_id: ws.wabaId, name: 'autumn_promo', language: 'en_US', event: 'APPROVED' });
    await eventually(
      () => listed('APPROVED', 'autumn_promo'),
      (list) => list.length === 1,
    );
    // The platform lists it with the handle of the uploaded example: a sync keeps it as it is.
    expect((await call('POST', '/api/v1/templates/sync')).status).toBe(200);
    expect(await listed('APPROVED', 'autumn_promo')).toEqual([{ ...created.body.data, status: 'APPROVED' }]);

    const to = '14155557001';
    const sent = await call('POST', '/api/v1/messages', {
      to,
      template: { name: 'autumn_promo', language: 'en_US' },
      variables: ['30%', 'Friday'],
      header: { image: { link: 'https://cdn.example.com/autumn.jpg' } },
      buttons: [{ index: 0, value: 'ada' }],
    });
    expect(sent.status).toBe(202);
    const [request] = await eventually(
      () => simulator.sends(to),
      (list) => list.length === 1,
    );
    expect((request.request.template as { components: unknown[] }).components).toEqual([
      { type: 'header', parameters: [{ type: 'image', image: { link: 'https://cdn.example.com/autumn.jpg' } }] },
      {
        type: 'body',
        parameters: [
          { type: 'text', text: '30%' },
          { type: 'text', text: 'Friday' },
        ],
      },
      { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: 'ada' }] },
      { type: 'button', sub_type: 'quick_reply', index: '1', parameters: [{ type: 'payload', payload: 'Not interested' }] },
    ]);
  });

  it('takes the header example as base64 too', async () => {
    const reply = await call(
      'POST',
      '/api/v1/templates',
      promo('autumn_inline', imageHeader({ header_base64: PNG.toString('base64'), mime_type: 'image/png' })),
    );
    expect(reply.status).toBe(201);
  });

  it('is 409 template_exists for a name and language already in the business account, ours or only the platform’s', async () => {
    expect((await call('POST', '/api/v1/templates', textOnly('twice'))).status).toBe(201);
    const again = await call('POST', '/api/v1/templates', textOnly('twice'));
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('template_exists');
    // Not synced here, so only the platform knows it: its 2388024 is the same answer.
    const platformOnly = await call('POST', '/api/v1/templates', textOnly('order_update'));
    expect(platformOnly.status).toBe(409);
    expect(platformOnly.body.error.code).toBe('template_exists');
  });

  it("passes the platform's refusal on as 422 platform_error with its code, message and error_user_msg", async () => {
    const created = await call('POST', '/api/v1/templates', textOnly('short_lived'));
    expect((await call('DELETE', `/api/v1/templates/${created.body.data.id}`)).status).toBe(200);
    // A name and language just deleted cannot be created again yet (2388023).
    const refused = await call('POST', '/api/v1/templates', textOnly('short_lived'));
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe('platform_error');
    expect(refused.body.error.details).toEqual(
      expect.arrayContaining([
        { field: 'code', message: '100' },
        { field: 'error_subcode', message: '2388023' },
        { field: 'message', message: 'Invalid parameter' },
        { field: 'error_user_msg', message: expect.stringContaining('being deleted') },
      ]),
    );
  });

  it('stores nothing when the upload fails mid-way, and says why', async () => {
    await simulator.faults({ upload_error: true });
    try {
      const reply = await call('POST', '/api/v1/templates', promo('broken_upload', imageHeader({ header_url: `${filesUrl}/autumn.png` })));
      expect(reply.status).toBe(502);
      expect(reply.body.error.code).toBe('platform_error');
      expect(reply.body.error.message).toMatch(/header example/);
    } finally {
      await simulator.resetFaults();
    }
    expect(await listed('PENDING', 'broken_upload')).toEqual([]);
    // Nothing was created on the platform either: the same name is free.
    expect((await call('POST', '/api/v1/templates', promo('broken_upload', imageHeader({ header_url: `${filesUrl}/autumn.png` })))).status).toBe(201);
  });
});
