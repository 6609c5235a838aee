import { setRateLimit } from '#shared/domain/workspaces';
import type { Reply } from '#local/api-client';
import { useTestApi } from '../support/api';
import { eventually } from '../support/wait';

const api = useTestApi();

interface Timed {
  reply: Reply;
  sentAt: number;
  receivedAt: number;
}

const list = (key: string) => api.call('GET', '/api/v1/contacts', { key });

/** `count` requests fired together, each with when it left and when its answer came (client clock, the server's too: in-process). */
const burst = (key: string, count: number): Promise<Timed[]> =>
  Promise.all(
    Array.from({ length: count }, async () => {
      const sentAt = Date.now();
      const reply = await list(key);
      return { reply, sentAt, receivedAt: Date.now() };
    }),
  );

/** Waits until just after the clock's next whole second, so a burst starts at the beginning of one. */
const nextSecond = () => new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 20));

/**
 * The most a limit may admit over the seconds a set of requests spanned (each is counted in a
 * second between the one it left in and the one its answer came in): any two consecutive
 * seconds admit at most twice the limit, so n seconds at most twice the limit per started pair.
 */
function admittedBound(timed: Timed[], limit: number): number {
  const first = Math.floor(Math.min(...timed.map((t) => t.sentAt)) / 1000);
  const last = Math.floor(Math.max(...timed.map((t) => t.receivedAt)) / 1000);
  return 2 * limit * Math.ceil((last - first + 1) / 2);
}

function expectRefusalsWellFormed(timed: Timed[], limit: number) {
  for (const { reply } of timed) expect([200, 429]).toContain(reply.status);
  for (const { reply } of timed.filter((t) => t.reply.status === 429)) {
    expect(reply.body.error.code).toBe('rate_limited');
    expect(Number(reply.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(reply.headers.get('ratelimit-limit')).toBe(String(limit));
    expect(reply.headers.get('ratelimit-remaining')).toBe('0');
  }
}

const admitted = (timed: Timed[]) => timed.filter((t) => t.reply.status === 200).length;

describe('request rate per workspace (contract §14): admission is one atomic write', () => {
  it.each([
    [2, 60],
    [20, 200],
  ])(
    'at %i/s, %i concurrent requests: no two seconds admit more than twice the limit, the rest get 429 with its headers; another workspace bursting at once is unaffected',
    async (limit, concurrency) => {
      const ws = await api.workspace('starter');
      await setRateLimit(ws.id, limit);
      const other = await api.workspace('pro');
      await list(ws.key); // the key is now known to the process: its admission is written alongside the key's read, the fastest path
      await nextSecond();

      const [mine, theirs] = await Promise.all([burst(ws.key, concurrency), burst(other.key, 20)]);
      const spanned = admittedBound(mine, limit);
      console.log(
        `limit ${limit}/s, ${concurrency} at once: ${admitted(mine)} admitted (bound ${spanned} over the seconds spanned), ${concurrency - admitted(mine)} refused`,
      );
      expect(admitted(mine)).toBeLessThanOrEqual(spanned);
      expect(admitted(mine)).toBeGreaterThanOrEqual(limit); // the first second of a burst takes at least the limit
      expectRefusalsWellFormed(mine, limit);
      expect(theirs.every((t) => t.reply.status === 200)).toBe(true);
    },
  );

  it('at 100/s, two bursts of 200 one second apart admit no more than 200 together', async () => {
    const ws = await api.workspace('starter');
    await setRateLimit(ws.id, 100);
    await list(ws.key);
    await nextSecond();
    const first = await burst(ws.key, 200);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, 1000 - (Date.now() % 1000) + 20)));
    const second = await burst(ws.key, 200);
    const all = [...first, ...second];
    expect(admitted(all)).toBeLessThanOrEqual(admittedBound(all, 100));
    expect(admitted(first)).toBeGreaterThanOrEqual(100);
    expectRefusalsWellFormed(all, 100);
  }, 90_000);

  it('after Retry-After, requests pass again; refused requests count in usage as failed', async () => {
    const ws = await api.workspace('starter');
    await setRateLimit(ws.id, 2);
    const timed = await burst(ws.key, 30);
    const refused = timed.filter((t) => t.reply.status === 429);
    expect(refused.length).toBeGreaterThanOrEqual(30 - admittedBound(timed, 2));
    const retryAfter = Math.max(...refused.map((t) => Number(t.reply.headers.get('retry-after'))));
    await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000 + 50));
    expect((await list(ws.key)).status).toBe(200);
    const usage = await eventually(
      async () => (await api.call('GET', '/api/v1/usage?days=1', { key: ws.key })).body.data?.overview,
      (overview) => overview?.failed_requests >= refused.length,
      10_000,
    );
    expect(usage.failed_requests).toBeGreaterThanOrEqual(refused.length);
  });

  it('a limit changed mid-burst holds within a few seconds', async () => {
    const ws = await api.workspace('starter');
    await setRateLimit(ws.id, 100);
    await list(ws.key);
    await nextSecond();
    const before = await burst(ws.key, 60);
    expect(admitted(before)).toBe(60); // under twice 100

    await setRateLimit(ws.id, 2);
    await new Promise((resolve) => setTimeout(resolve, 4000)); // the workspace cache holds 3 s at most
    await nextSecond();
    const after = await burst(ws.key, 60);
    expect(admitted(after)).toBeLessThanOrEqual(admittedBound(after, 2));
    expectRefusalsWellFormed(after, 2);
  });

  it('uses the plan limit when the operator set none: a starter workspace takes a burst of twice its 20 per second, then 429', async () => {
    const ws = await api.workspace('starter');
    await nextSecond();
    // Four clients one request after another until the first 429 (a refusal may be answered before an admitted request still in flight).
    const statuses: number[] = [];
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (!statuses.includes(429) && statuses.length < 600) statuses.push((await list(ws.key)).status);
      }),
    );
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(40);
    expect(statuses.slice(0, 40 - 3)).toEqual(Array(40 - 3).fill(200));
    expect(statuses).toContain(429);
  });
});
