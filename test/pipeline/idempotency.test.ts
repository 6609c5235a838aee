import { claimIdempotencyRecord } from '#shared/data/idempotency-record';
import { fingerprint } from '#shared/http/idempotency';
import { epochSeconds } from '#shared/time';
import { useTestApi, type TestWorkspace } from '../support/api';

const api = useTestApi();
let ws: TestWorkspace;
beforeAll(async () => {
  ws = await api.workspace();
  await api.call('POST', '/api/v1/templates/sync', { key: ws.key });
});

const body = (to = '+14155550401') => ({ to, template: 'welcome', variables: ['Ada'] });
const send = (key: string, payload: unknown = body()) =>
  api.call('POST', '/api/v1/messages', { key: ws.key, body: payload, headers: { 'Idempotency-Key': key } });
/** The messages listed (the index, written with each message), not the total: that follows from the table stream, which does not run here. */
const count = async () => (await api.call('GET', '/api/v1/messages?pageSize=100', { key: ws.key })).body.data.length;

describe('Idempotency-Key on POST /api/v1/messages', () => {
  it('replays the first response with Idempotent-Replayed: true and creates one message', async () => {
    const before = await count();
    const first = await send('replay-1');
    const second = await send('replay-1', { variables: ['Ada'], template: 'welcome', to: '+14155550401' }); // same body, other key order
    expect(first.status).toBe(202);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(second.status).toBe(202);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body.data).toEqual(first.body.data);
    expect(second.body.request_id).toBe(second.headers.get('x-request-id'));
    expect(await count()).toBe(before + 1);
  });

  it('answers 422 idempotency_key_reused for the same key with another body', async () => {
    await send('reuse-1');
    const other = await send('reuse-1', body('+14155550402'));
    expect(other.status).toBe(422);
    expect(other.body.error.code).toBe('idempotency_key_reused');
  });

  it('replays a client error too', async () => {
    const bad = { to: '+14155550403', template: 'nope' };
    const first = await send('error-1', bad);
    const again = await send('error-1', bad);
    expect(first.status).toBe(422);
    expect(again.status).toBe(422);
    expect(again.body.error.code).toBe('template_not_found');
  });

  it('lets exactly one of concurrent identical requests run; the others get 409 or the replay', async () => {
    const before = await count();
    const replies = await Promise.all(Array.from({ length: 6 }, () => send('race-1')));
    const statuses = replies.map((r) => r.status);
    expect(statuses.every((s) => s === 202 || s === 409)).toBe(true);
    expect(replies.filter((r) => r.status === 202 && !r.headers.get('idempotent-replayed'))).toHaveLength(1);
    for (const r of replies.filter((r) => r.status === 409)) expect(r.body.error.code).toBe('idempotency_key_in_use');
    expect(await count()).toBe(before + 1);
  });

  it('takes over a key whose first attempt crashed, reusing its message id', async () => {
    const key = 'crashed-1';
    const resourceId = '01a20000-0000-7000-8000-00000000c0de';
    // What a crashed first attempt leaves: in flight, lock lapsed.
    const claimed = await claimIdempotencyRecord(
      { workspaceId: ws.id, endpoint: 'POST /api/v1/messages', key },
      { fingerprint: fingerprint('/api/v1/messages', body()), resource_id: resourceId, attempt: 1, locked_until: epochSeconds() - 1 },
      undefined,
      epochSeconds(),
    );
    expect(claimed).toBe(true);
    const retry = await send(key);
    expect(retry.status).toBe(202);
    expect(retry.body.data.message_id).toBe(resourceId);
  });

  it('scopes keys to the workspace', async () => {
    const other = await api.workspace();
    await api.call('POST', '/api/v1/templates/sync', { key: other.key });
    await send('scoped-1');
    const elsewhere = await api.call('POST', '/api/v1/messages', { key: other.key, body: body('+14155550409'), headers: { 'Idempotency-Key': 'scoped-1' } });
    expect(elsewhere.status).toBe(202);
    expect(elsewhere.headers.get('idempotent-replayed')).toBeNull();
  });

  it('rejects an over-long key', async () => {
    const reply = await send('k'.repeat(256));
    expect(reply.status).toBe(400);
    expect(reply.body.error.details).toEqual([{ field: 'Idempotency-Key', message: expect.any(String) }]);
  });
});
