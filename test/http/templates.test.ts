import { useTestApi } from '../support/api';

const api = useTestApi();

describe('templates', () => {
  it('syncs from the platform and lists approved templates by default', async () => {
    const ws = await api.workspace();
    expect((await api.call('GET', '/api/v1/templates', { key: ws.key })).body.data).toEqual([]);

    const sync = await api.call('POST', '/api/v1/templates/sync', { key: ws.key });
    expect(sync.status).toBe(200);
    expect(sync.body.data).toEqual({ synced_count: 6 });

    const list = await api.call('GET', '/api/v1/templates', { key: ws.key });
    expect(list.body.data.map((t: { name: string; language: string }) => `${t.name}/${t.language}`)).toEqual([
      'hello_world/en_US',
      'order_update/en_US',
      'order_update/es_ES',
      'welcome/en_US',
    ]);
    expect(list.body.data[1]).toEqual({
      id: expect.stringMatching(/^\d+$/),
      name: 'order_update',
      language: 'en_US',
      category: 'UTILITY',
      status: 'APPROVED',
      content: 'Hi {{1}}, your order {{2}} has shipped.',
    });
  });

  it('filters by status, name and language; a second sync changes nothing', async () => {
    const ws = await api.workspace();
    await api.call('POST', '/api/v1/templates/sync', { key: ws.key });
    const before = await api.call('GET', '/api/v1/templates?status=PENDING', { key: ws.key });
    await api.call('POST', '/api/v1/templates/sync', { key: ws.key });
    const pending = await api.call('GET', '/api/v1/templates?status=PENDING', { key: ws.key });
    expect(pending.body.data).toEqual(before.body.data);
    expect(pending.body.data.map((t: { name: string }) => t.name)).toEqual(['spring_sale']);
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
