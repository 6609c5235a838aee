import { useTestApi, type TestWorkspace } from '../support/api';
import { eventually } from '../support/wait';

const api = useTestApi({ searchIndexing: true });

const upsert = (ws: TestWorkspace, body: unknown) => api.call('POST', '/api/v1/contacts', { key: ws.key, body });

describe('contacts', () => {
  it('creates (201) then updates (200) by normalised phone, replacing fields and merging custom_fields', async () => {
    const ws = await api.workspace();
    const created = await upsert(ws, {
      phone_number: '+1 (415) 555-0123',
      name: 'Ada',
      email: 'ada@example.com',
      tags: [' vip ', 'VIP', 'early'],
      custom_fields: { plan: 'gold', seats: 3, beta: true },
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Ada',
      phone_number: '14155550123',
      email: 'ada@example.com',
      tags: ['vip', 'early'],
      custom_fields: { plan: 'gold', seats: 3, beta: true },
      opted_out_at: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });

    const updated = await upsert(ws, { phone_number: '14155550123', name: 'Ada L.', custom_fields: { seats: null, region: 'eu' } });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({
      id: created.body.data.id,
      name: 'Ada L.',
      email: 'ada@example.com',
      tags: ['vip', 'early'],
      custom_fields: { plan: 'gold', beta: true, region: 'eu' },
      created_at: created.body.data.created_at,
    });
    const fetched = await api.call('GET', `/api/v1/contacts/${created.body.data.id}`, { key: ws.key });
    expect(fetched.body.data).toEqual(updated.body.data);
  });

  it('makes one contact of two simultaneous upserts of one phone', async () => {
    const ws = await api.workspace();
    const replies = await Promise.all(
      Array.from({ length: 8 }, (_, i) => upsert(ws, { phone_number: '+44 20 7946 0958', name: `Racer ${i}`, tags: [`t${i}`] })),
    );
    expect(replies.filter((r) => r.status === 201)).toHaveLength(1);
    expect(replies.filter((r) => r.status === 200)).toHaveLength(7);
    expect(new Set(replies.map((r) => r.body.data.id)).size).toBe(1);
    const list = await api.call('GET', '/api/v1/contacts', { key: ws.key });
    expect(list.body.pagination.totalCount).toBe(1);
    const winner = (await api.call('GET', `/api/v1/contacts/${replies[0].body.data.id}`, { key: ws.key })).body.data;
    // The tag index agrees with the final contact, whatever order the writers finished in.
    for (let i = 0; i < 8; i++) {
      const tagged = await api.call('GET', `/api/v1/contacts?tag=t${i}`, { key: ws.key });
      expect(tagged.body.pagination.totalCount).toBe(winner.tags.includes(`t${i}`) ? 1 : 0);
      expect(tagged.body.data).toHaveLength(winner.tags.includes(`t${i}`) ? 1 : 0);
    }
  });

  it('lists newest first with exact totalCount and page/pageSize', async () => {
    const ws = await api.workspace();
    for (let i = 0; i < 7; i++) await upsert(ws, { phone_number: `+1415555010${i}`, name: `Person ${i}` });
    const first = await api.call('GET', '/api/v1/contacts?pageSize=3', { key: ws.key });
    expect(first.body.data.map((c: { name: string }) => c.name)).toEqual(['Person 6', 'Person 5', 'Person 4']);
    expect(first.body.pagination).toEqual({ page: 1, pageSize: 3, totalCount: 7, hasMore: true });
    const last = await api.call('GET', '/api/v1/contacts?pageSize=3&page=3', { key: ws.key });
    expect(last.body.data.map((c: { name: string }) => c.name)).toEqual(['Person 0']);
    expect(last.body.pagination).toEqual({ page: 3, pageSize: 3, totalCount: 7, hasMore: false });
    const beyond = await api.call('GET', '/api/v1/contacts?pageSize=3&page=9', { key: ws.key });
    expect(beyond.body.data).toEqual([]);
  });

  it('searches names case-insensitively and phone digits, filters tags case-insensitively', async () => {
    const ws = await api.workspace();
    await upsert(ws, { phone_number: '+14155550111', name: 'Grace Hopper', tags: ['Navy'] });
    await upsert(ws, { phone_number: '+14155550122', name: 'Alan Turing', tags: ['navy', 'Crypto'] });
    await upsert(ws, { phone_number: '+5511987654321', name: 'Hopper Bar' });
    const names = async (query: string) => {
      const reply = await api.call('GET', `/api/v1/contacts?${query}`, { key: ws.key });
      return { names: reply.body.data.map((c: { name: string }) => c.name), total: reply.body.pagination.totalCount };
    };
    // Search entries follow the contacts through the table's stream: found once indexed.
    await eventually(
      () => Promise.all(['search=hopp', 'search=555-01'].map(async (query) => (await names(query)).total)),
      (totals) => totals.join() === '2,2',
    );
    expect(await names('search=hopp')).toEqual({ names: ['Hopper Bar', 'Grace Hopper'], total: 2 });
    expect(await names('search=HOPPER&pageSize=1')).toEqual({ names: ['Hopper Bar'], total: 2 });
    expect(await names('search=555-01')).toEqual({ names: ['Alan Turing', 'Grace Hopper'], total: 2 });
    expect(await names('search=98765')).toEqual({ names: ['Hopper Bar'], total: 1 });
    expect(await names('tag=NAVY')).toEqual({ names: ['Alan Turing', 'Grace Hopper'], total: 2 });
    expect(await names('tag=crypto')).toEqual({ names: ['Alan Turing'], total: 1 });
    expect(await names('tag=navy&search=grace')).toEqual({ names: ['Grace Hopper'], total: 1 });
    expect(await names('tag=none')).toEqual({ names: [], total: 0 });
  });

  it('patches fields, moves tags in the index, and refuses a phone number of another contact', async () => {
    const ws = await api.workspace();
    const a = (await upsert(ws, { phone_number: '+14155550201', tags: ['one', 'two'] })).body.data;
    const b = (await upsert(ws, { phone_number: '+14155550202' })).body.data;
    const patched = await api.call('PATCH', `/api/v1/contacts/${a.id}`, { key: ws.key, body: { tags: ['two', 'three'], email: null, name: 'A' } });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({ tags: ['two', 'three'], email: null, name: 'A', phone_number: '14155550201' });
    expect((await api.call('GET', '/api/v1/contacts?tag=one', { key: ws.key })).body.pagination.totalCount).toBe(0);
    expect((await api.call('GET', '/api/v1/contacts?tag=three', { key: ws.key })).body.data.map((c: { id: string }) => c.id)).toEqual([a.id]);

    const clash = await api.call('PATCH', `/api/v1/contacts/${a.id}`, { key: ws.key, body: { phone_number: b.phone_number } });
    expect(clash.status).toBe(409);
    expect(clash.body.error.code).toBe('invalid_state');

    const moved = await api.call('PATCH', `/api/v1/contacts/${a.id}`, { key: ws.key, body: { phone_number: '+1 415 555 0203' } });
    expect(moved.body.data.phone_number).toBe('14155550203');
    expect((await upsert(ws, { phone_number: '+14155550201' })).status).toBe(201); // the old number is free again
    expect((await upsert(ws, { phone_number: '+14155550203', name: 'A again' })).body.data.id).toBe(a.id);
  });

  it('deletes a contact, freeing its number and leaving its tags', async () => {
    const ws = await api.workspace();
    const c = (await upsert(ws, { phone_number: '+14155550301', tags: ['gone'] })).body.data;
    const deleted = await api.call('DELETE', `/api/v1/contacts/${c.id}`, { key: ws.key });
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toEqual({ id: c.id, phone_number: '14155550301', deleted: true });
    expect((await api.call('GET', `/api/v1/contacts/${c.id}`, { key: ws.key })).status).toBe(404);
    expect((await api.call('DELETE', `/api/v1/contacts/${c.id}`, { key: ws.key })).status).toBe(404);
    expect((await api.call('GET', '/api/v1/contacts?tag=gone', { key: ws.key })).body.pagination.totalCount).toBe(0);
    expect((await api.call('GET', '/api/v1/contacts', { key: ws.key })).body.pagination.totalCount).toBe(0);
  });

  it("never shows or changes another workspace's contacts", async () => {
    const a = await api.workspace();
    const b = await api.workspace();
    const c = (await upsert(a, { phone_number: '+14155550401', name: 'Private' })).body.data;
    expect((await api.call('GET', `/api/v1/contacts/${c.id}`, { key: b.key })).status).toBe(404);
    expect((await api.call('PATCH', `/api/v1/contacts/${c.id}`, { key: b.key, body: { name: 'x' } })).status).toBe(404);
    expect((await api.call('DELETE', `/api/v1/contacts/${c.id}`, { key: b.key })).status).toBe(404);
    expect((await upsert(b, { phone_number: '+14155550401' })).status).toBe(201);
    // Once A's contact is found by search, B's search still finds nothing.
    await eventually(
      async () => (await api.call('GET', '/api/v1/contacts?search=private', { key: a.key })).body.pagination.totalCount,
      (total) => total === 1,
    );
    expect((await api.call('GET', '/api/v1/contacts?search=private', { key: b.key })).body.data).toEqual([]);
  });
});
