import { useTestApi } from '../support/api';

const api = useTestApi();

describe('API keys', () => {
  it('creates a key that works at once, shown in full only in the create response', async () => {
    const ws = await api.workspace();
    const created = await api.call('POST', '/api/v1/keys', { key: ws.key, body: { name: 'CI', description: 'for CI' } });
    expect(created.status).toBe(201);
    expect(created.body.data).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'CI',
      description: 'for CI',
      api_key: expect.stringMatching(/^sk_live_[A-Za-z0-9_-]{43}$/),
      api_key_prefix: created.body.data.api_key.slice(0, 12) + '...',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      last_used_at: null,
    });
    expect((await api.call('GET', '/api/v1/keys', { key: created.body.data.api_key })).status).toBe(200);
  });

  it('lists active keys newest first, masked, with last_used_at once used', async () => {
    const ws = await api.workspace();
    const second = await api.call('POST', '/api/v1/keys', { key: ws.key, body: { name: 'second' } });
    const list = await api.call('GET', '/api/v1/keys', { key: ws.key });
    expect(list.status).toBe(200);
    expect(list.body.data.map((k: { name: string }) => k.name)).toEqual(['second', 'Test key']);
    for (const key of list.body.data) {
      expect(Object.keys(key).sort()).toEqual(['api_key_prefix', 'created_at', 'description', 'id', 'last_used_at', 'name']);
      expect(key.api_key_prefix).toMatch(/^sk_live_.{4}\.\.\.$/);
    }
    expect(JSON.stringify(list.body)).not.toContain(second.body.data.api_key);
    const testKey = list.body.data.find((k: { name: string }) => k.name === 'Test key');
    expect(testKey.last_used_at).toEqual(expect.any(String));
  });

  it('revokes a key; the revoked key gets 401 from its next request on', async () => {
    const ws = await api.workspace();
    const extra = await api.call('POST', '/api/v1/keys', { key: ws.key, body: { name: 'temporary' } });
    const revoked = await api.call('DELETE', `/api/v1/keys?id=${extra.body.data.id}`, { key: ws.key });
    expect(revoked.status).toBe(200);
    expect(revoked.body.data).toEqual({ id: extra.body.data.id, revoked: true, revoked_at: expect.any(String) });

    const rejected = await api.call('GET', '/api/v1/keys', { key: extra.body.data.api_key });
    expect(rejected.status).toBe(401);
    expect(rejected.headers.get('www-authenticate')).toBe('Bearer');
    expect(rejected.body.error.code).toBe('unauthorized');

    const list = await api.call('GET', '/api/v1/keys', { key: ws.key });
    expect(list.body.data.map((k: { id: string }) => k.id)).not.toContain(extra.body.data.id);
    expect((await api.call('DELETE', `/api/v1/keys?id=${extra.body.data.id}`, { key: ws.key })).status).toBe(404);
  });

  it('a key revoked after use: its next request is refused and not counted in usage, though its admission was written with the key read', async () => {
    const ws = await api.workspace();
    const extra = await api.call('POST', '/api/v1/keys', { key: ws.key, body: { name: 'temporary' } });
    expect((await api.call('GET', '/api/v1/keys', { key: extra.body.data.api_key })).status).toBe(200);
    await api.call('DELETE', `/api/v1/keys?id=${extra.body.data.id}`, { key: ws.key });
    // This process has seen the key: its admission, which counts the request, starts before the key is read and is withdrawn.
    expect((await api.call('GET', '/api/v1/keys', { key: extra.body.data.api_key })).status).toBe(401);
    const usage = await api.call('GET', '/api/v1/usage?days=1', { key: ws.key });
    expect(usage.body.data.overview).toMatchObject({ total_requests: 3, successful_requests: 3, failed_requests: 0 });
  });

  it('refuses to revoke the only active key', async () => {
    const ws = await api.workspace();
    const [only] = (await api.call('GET', '/api/v1/keys', { key: ws.key })).body.data;
    const refused = await api.call('DELETE', `/api/v1/keys?id=${only.id}`, { key: ws.key });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('cannot_revoke_last_key');
    expect((await api.call('GET', '/api/v1/keys', { key: ws.key })).status).toBe(200);
  });

  it('keeps one active key when two keys are revoked concurrently', async () => {
    const ws = await api.workspace();
    const other = await api.call('POST', '/api/v1/keys', { key: ws.key, body: { name: 'other' } });
    const ids = (await api.call('GET', '/api/v1/keys', { key: ws.key })).body.data.map((k: { id: string }) => k.id);
    const results = await Promise.all(ids.map((id: string) => api.call('DELETE', `/api/v1/keys?id=${id}`, { key: other.body.data.api_key })));
    // The second is refused by the last-key rule (409), or, when the first revoked the key it was sent with before it was authenticated, as unauthorized (401).
    const statuses = results.map((r) => r.status).sort();
    expect([
      [200, 409],
      [200, 401],
    ]).toContainEqual(statuses);
    const survivor = results[0].status === 200 ? ids[1] : ids[0];
    const key = survivor === other.body.data.id ? other.body.data.api_key : ws.key;
    expect((await api.call('GET', '/api/v1/keys', { key })).body.data.map((k: { id: string }) => k.id)).toEqual([survivor]);
  });

  it("never touches another workspace's keys", async () => {
    const a = await api.workspace();
    const b = await api.call('POST', '/api/v1/keys', { key: (await api.workspace()).key, body: { name: 'b-extra' } });
    const attempt = await api.call('DELETE', `/api/v1/keys?id=${b.body.data.id}`, { key: a.key });
    expect(attempt.status).toBe(404);
    expect(attempt.body.error.code).toBe('not_found');
    expect((await api.call('GET', '/api/v1/keys', { key: b.body.data.api_key })).status).toBe(200);
    const aList = await api.call('GET', '/api/v1/keys', { key: a.key });
    expect(aList.body.data).toHaveLength(1);
  });
});
