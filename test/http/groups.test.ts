import { useTestApi, type TestWorkspace } from '../support/api';

const api = useTestApi();

async function contacts(ws: TestWorkspace, n: number, base = 6000): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    ids.push((await api.call('POST', '/api/v1/contacts', { key: ws.key, body: { phone_number: `+1415555${base + i}`, name: `M${i}` } })).body.data.id);
  }
  return ids;
}

const group = async (ws: TestWorkspace, name = 'VIP') => (await api.call('POST', '/api/v1/groups', { key: ws.key, body: { name } })).body.data;
const count = async (ws: TestWorkspace, id: string) => (await api.call('GET', `/api/v1/groups/${id}`, { key: ws.key })).body.data.contacts_count;

describe('groups', () => {
  it('creates, gets, lists and deletes groups; contacts stay', async () => {
    const ws = await api.workspace();
    const created = await api.call('POST', '/api/v1/groups', { key: ws.key, body: { name: 'Customers', description: 'paying' } });
    expect(created.status).toBe(201);
    expect(created.body.data).toEqual({ id: expect.any(String), name: 'Customers', description: 'paying', contacts_count: 0, created_at: expect.any(String) });
    await group(ws, 'Second');
    const list = await api.call('GET', '/api/v1/groups', { key: ws.key });
    expect(list.body.data.map((g: { name: string }) => g.name)).toEqual(['Second', 'Customers']);
    expect(list.body.pagination).toEqual({ page: 1, pageSize: 50, totalCount: 2, hasMore: false });

    const [member] = await contacts(ws, 1);
    await api.call('POST', `/api/v1/groups/${created.body.data.id}/contacts`, { key: ws.key, body: { contact_ids: [member] } });
    const deleted = await api.call('DELETE', `/api/v1/groups/${created.body.data.id}`, { key: ws.key });
    expect(deleted.status).toBe(200);
    expect((await api.call('GET', `/api/v1/groups/${created.body.data.id}`, { key: ws.key })).status).toBe(404);
    expect((await api.call('GET', `/api/v1/contacts/${member}`, { key: ws.key })).status).toBe(200);
    expect((await api.call('GET', '/api/v1/groups', { key: ws.key })).body.pagination.totalCount).toBe(1);
    // The contact can be deleted afterwards without touching the deleted group.
    expect((await api.call('DELETE', `/api/v1/contacts/${member}`, { key: ws.key })).status).toBe(200);
  });

  it('adds members counting only new ones, reports unknown ids, lists members, removes them', async () => {
    const ws = await api.workspace();
    const g = await group(ws);
    const [a, b, c] = await contacts(ws, 3);
    const unknown = '01900000-0000-7000-8000-000000000000';
    const added = await api.call('POST', `/api/v1/groups/${g.id}/contacts`, { key: ws.key, body: { contact_ids: [a, b, b, unknown] } });
    expect(added.status).toBe(200);
    expect(added.body.data).toEqual({ group_id: g.id, added_count: 2, total_contacts: 2, not_found_ids: [unknown] });

    const again = await api.call('POST', `/api/v1/groups/${g.id}/contacts`, { key: ws.key, body: { contact_ids: [a, c] } });
    expect(again.body.data).toEqual({ group_id: g.id, added_count: 1, total_contacts: 3, not_found_ids: [] });

    const members = await api.call('GET', `/api/v1/groups/${g.id}/contacts?pageSize=2`, { key: ws.key });
    expect(members.body.data.map((m: { id: string }) => m.id)).toEqual([c, b]);
    expect(members.body.pagination).toEqual({ page: 1, pageSize: 2, totalCount: 3, hasMore: true });

    const removed = await api.call('DELETE', `/api/v1/groups/${g.id}/contacts`, { key: ws.key, body: { contact_ids: [a, unknown] } });
    expect(removed.body.data).toEqual({ group_id: g.id, removed_count: 1, total_contacts: 2 });
    expect(await count(ws, g.id)).toBe(2);
  });

  it('keeps contacts_count exact under concurrent adds of the same contacts', async () => {
    const ws = await api.workspace();
    const g = await group(ws);
    const ids = await contacts(ws, 6);
    const replies = await Promise.all(
      Array.from({ length: 4 }, () => api.call('POST', `/api/v1/groups/${g.id}/contacts`, { key: ws.key, body: { contact_ids: ids } })),
    );
    expect(replies.reduce((sum, r) => sum + r.body.data.added_count, 0)).toBe(6);
    expect(await count(ws, g.id)).toBe(6);
  });

  it('decrements the counts of every group a deleted contact was in', async () => {
    const ws = await api.workspace();
    const g1 = await group(ws, 'one');
    const g2 = await group(ws, 'two');
    const [a, b] = await contacts(ws, 2);
    for (const g of [g1, g2]) await api.call('POST', `/api/v1/groups/${g.id}/contacts`, { key: ws.key, body: { contact_ids: [a, b] } });
    await api.call('DELETE', `/api/v1/contacts/${a}`, { key: ws.key });
    expect(await count(ws, g1.id)).toBe(1);
    expect(await count(ws, g2.id)).toBe(1);
    const members = await api.call('GET', `/api/v1/groups/${g1.id}/contacts`, { key: ws.key });
    expect(members.body.data.map((m: { id: string }) => m.id)).toEqual([b]);
    expect(members.body.pagination.totalCount).toBe(1);
  });

  it("treats another workspace's groups and contacts as missing", async () => {
    const a = await api.workspace();
    const b = await api.workspace();
    const g = await group(a);
    const [bContact] = await contacts(b, 1);
    expect((await api.call('GET', `/api/v1/groups/${g.id}`, { key: b.key })).status).toBe(404);
    expect((await api.call('POST', `/api/v1/groups/${g.id}/contacts`, { key: b.key, body: { contact_ids: [bContact] } })).status).toBe(404);
    const crossAdd = await api.call('POST', `/api/v1/groups/${g.id}/contacts`, { key: a.key, body: { contact_ids: [bContact] } });
    expect(crossAdd.body.data).toMatchObject({ added_count: 0, not_found_ids: [bContact] });
    expect((await api.call('DELETE', `/api/v1/groups/${g.id}`, { key: b.key })).status).toBe(404);
  });
});
