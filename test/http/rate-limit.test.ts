import { setRateLimit } from '#shared/domain/workspaces';
import { useTestApi } from '../support/api';

const api = useTestApi();

describe('request rate per workspace (contract §14)', () => {
  it('answers a burst over the limit with 429 and Retry-After; after that wait requests pass; other workspaces are unaffected', async () => {
    const ws = await api.workspace('starter');
    await setRateLimit(ws.id, 5);
    const other = await api.workspace('starter');
    const list = (key: string) => api.call('GET', '/api/v1/contacts', { key });

    // 20 concurrent clients, 5 requests each.
    const replies = (await Promise.all(Array.from({ length: 20 }, async () => {
      const mine = [];
      for (let i = 0; i < 5; i++) mine.push(await list(ws.key));
      return mine;
    }))).flat();
    const refused = replies.filter((r) => r.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    expect(replies.filter((r) => r.status === 200).length).toBeGreaterThan(0);
    expect(replies.every((r) => r.status === 200 || r.status === 429)).toBe(true);
    const first = refused[0];
    expect(first.body.error.code).toBe('rate_limited');
    expect(Number(first.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(first.headers.get('ratelimit-limit')).toBe('5');
    expect(first.headers.get('ratelimit-remaining')).toBe('0');

    // Another workspace meanwhile: untouched.
    expect((await list(other.key)).status).toBe(200);

    const retryAfter = Math.max(...refused.map((r) => Number(r.headers.get('retry-after'))));
    await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000 + 1100));
    expect((await list(ws.key)).status).toBe(200);

    // Refused requests count in usage as failed.
    const usage = (await api.call('GET', '/api/v1/usage?days=1', { key: ws.key })).body.data.overview;
    expect(usage.failed_requests).toBeGreaterThanOrEqual(refused.length);
  });

  it('uses the plan limit when the operator set none: a starter workspace takes a burst of twice its 20 per second, then 429', async () => {
    const ws = await api.workspace('starter');
    // Four clients one request after another (fast enough on a slow machine too), until the first 429; statuses in the order answered.
    const statuses: number[] = [];
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (!statuses.includes(429) && statuses.length < 600) statuses.push((await api.call('GET', '/api/v1/contacts', { key: ws.key })).status);
      }),
    );
    expect(statuses.slice(0, 40)).toEqual(Array(40).fill(200));
    expect(statuses).toContain(429);
  });
});
