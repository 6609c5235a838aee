import { useTestApi } from '../support/api';

const api = useTestApi();

describe('templates', () => {
  it('syncs from the platform and lists approved templates by default', async () => {
    const ws = await api.workspace();
    expect((await api.call('GET', '/api/v1/templates', { key: ws.key })).body.data).toEqual([]);

    const sync = await api.call('POST', '/api/v1/templates/sync', { key: ws.key });
    expect(sync.status).toBe(200);
    expect(sync.body.data).toEqual({ synced_count: 13 });

    const list = await api.call('GET', '/api/v1/templates', { key: ws.key });
    expect(list.body.data.map((t: { name: string; language: string }) => `${t.name}/${t.language}`)).toEqual([
      'coupon_drop/en_US',
      'delivery_window/en_US',
      'hello_world/en_US',
      'holiday_hours/en_US',
      'invoice_ready/en_US',
      'login_code/en_US',
      'order_update/en_US',
      'order_update/es_ES',
      'spring_promo/en_US',
      'store_visit/en_US',
      'welcome/en_US',
    ]);
    const byName = (name: string) => list.body.data.find((t: { name: string }) => t.name === name);
    expect(byName('order_update')).toEqual({
      id: expect.stringMatching(/^\d+$/),
      waba_id: ws.wabaId,
      name: 'order_update',
      language: 'en_US',
      category: 'UTILITY',
      status: 'APPROVED',
      content: 'Hi {{1}}, your order {{2}} has shipped.',
      parameter_format: 'POSITIONAL',
      placeholders: ['1', '2'],
      header: null,
      footer: null,
      buttons: [],
    });
  });

  it("keeps each template's header, footer, buttons and placeholders (contract §12)", async () => {
    const ws = await api.workspace();
    await api.call('POST', '/api/v1/templates/sync', { key: ws.key });
    const one = async (name: string) => (await api.call('GET', `/api/v1/templates?name=${name}`, { key: ws.key })).body.data[0];
    expect(await one('spring_promo')).toMatchObject({
      category: 'MARKETING',
      parameter_format: 'POSITIONAL',
      placeholders: ['1', '2'],
      content: 'Spring sale: {{1}} off everything until {{2}}.',
      header: { format: 'IMAGE', text: null, placeholders: [] },
      footer: 'Reply STOP to opt out',
      buttons: [
        { index: 0, type: 'URL', text: 'Shop now', url: 'https://shop.example.com/s/{{1}}', placeholders: ['1'] },
        { index: 1, type: 'QUICK_REPLY', text: 'Stop promotions', url: null, placeholders: [] },
      ],
    });
    expect(await one('delivery_window')).toMatchObject({
      parameter_format: 'NAMED',
      placeholders: ['order_id', 'start', 'end'],
      header: { format: 'TEXT', text: 'Delivery for {{customer}}', placeholders: ['customer'] },
      footer: null,
      buttons: [{ index: 0, type: 'PHONE_NUMBER', text: 'Call us', url: null, placeholders: [] }],
    });
    expect(await one('login_code')).toMatchObject({ category: 'AUTHENTICATION', buttons: [{ index: 0, type: 'OTP', text: 'Copy code' }] });
    expect(await one('store_visit')).toMatchObject({ header: { format: 'LOCATION', text: null, placeholders: [] } });
    expect(await one('holiday_hours')).toMatchObject({ header: { format: 'TEXT', text: 'Holiday hours', placeholders: [] } });
  });

  it('filters by status, name and language; a second sync changes nothing', async () => {
    const ws = await api.workspace();
    await api.call('POST', '/api/v1/templates/sync', { key: ws.key });
    const before = await api.call('GET', '/api/v1/templates?status=PENDING', { key: ws.key });
    await api.call('POST', '/api/v1/templates/sync', { key: ws.key });
    const pending = await api.call('GET', '/api/v1/templates?status=PENDING', { key: ws.key });
    expect(pending.body.data).toEqual(before.body.data);
    expect(pending.body.data.map((t: { name: string }) => t.name)).toEqual(['spring_sale']);
    for (const status of ['PAUSED', 'DISABLED']) {
      const none = await api.call('GET', `/api/v1/templates?status=${status}`, { key: ws.key });
      expect(none.status).toBe(200);
      expect(none.body.data).toEqual([]);
    }
    const rejected = await api.call('GET', '/api/v1/templates?status=REJECTED', { key: ws.key });
    expect(rejected.body.data.map((t: { name: string }) => t.name)).toEqual(['old_offer']);
    const spanish = await api.call('GET', '/api/v1/templates?name=order_update&language=es_ES', { key: ws.key });
    expect(spanish.body.data).toHaveLength(1);
    expect(spanish.body.data[0].content).toBe('Hola {{1}}, tu pedido {{2}} ha sido enviado.');
  });

  it('rejects an unknown status', async () => {
    const ws = await api.workspace();
    const reply = await api.call('GET', '/api/v1/templates?status=approved', { key: ws.key });
    expect(reply.status).toBe(400);
    expect(reply.body.error.details).toEqual([{ field: 'status', message: expect.stringContaining('APPROVED') }]);
  });

  it("keeps one workspace's templates from another", async () => {
    const a = await api.workspace();
    const b = await api.workspace();
    await api.call('POST', '/api/v1/templates/sync', { key: a.key });
    expect((await api.call('GET', '/api/v1/templates', { key: b.key })).body.data).toEqual([]);
  });
});
