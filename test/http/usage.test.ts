import { utcDate } from '#shared/time';
import { admit } from '#shared/data/rate-window-admission';
import { windowDayCounts } from '#shared/data/rate-window';
import { usageDays } from '#shared/data/usage';
import { PutCommand } from '#shared/data/table/commands';
import { db, tableName } from '#shared/data/table/client';
import { useTestApi } from '../support/api';

const api = useTestApi();

describe('GET /api/v1/usage', () => {
  it('counts every authenticated call of the workspace, failed ones included, each after it completes', async () => {
    const ws = await api.workspace();
    await api.call('GET', '/api/v1/keys', { key: ws.key });
    await api.call('GET', '/api/v1/templates', { key: ws.key });
    await api.call('POST', '/api/v1/keys', { key: ws.key, body: { name: '' } });
    await api.call('GET', '/api/v1/keys'); // unauthenticated: not the workspace's

    const first = await api.call('GET', '/api/v1/usage', { key: ws.key });
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({
      period_days: 30,
      overview: { total_requests: 3, successful_requests: 2, failed_requests: 1, success_rate_pct: 67, avg_latency_ms: expect.any(Number) },
      daily: [{ date: utcDate(), total_requests: 3, successful_requests: 2, failed_requests: 1 }],
      cost: { currency: 'USD', total: '0.0000', by_category: {}, by_country: {} },
    });
    const second = await api.call('GET', '/api/v1/usage?days=1', { key: ws.key });
    expect(second.body.data.period_days).toBe(1);
    expect(second.body.data.overview.total_requests).toBe(4);
  });

  it('counts each of a concurrent burst exactly once, whether it succeeded, failed or was refused', async () => {
    const ws = await api.workspace('pro');
    // More at once than the local stack serves: the counts are written beside the handlers, and failures once answered.
    const replies = await Promise.all(
      Array.from({ length: 150 }, (_, i) =>
        i % 2 ? api.call('GET', '/api/v1/keys', { key: ws.key }) : api.call('POST', '/api/v1/keys', { key: ws.key, body: { name: '' } }),
      ),
    );
    const failed = replies.filter((reply) => reply.status >= 400).length;
    expect(failed).toBeGreaterThanOrEqual(75);
    const usage = (await api.call('GET', '/api/v1/usage?days=1', { key: ws.key })).body.data.overview;
    expect(usage).toMatchObject({ total_requests: 150, successful_requests: 150 - failed, failed_requests: failed });
    expect(usage.avg_latency_ms).toBeGreaterThan(0);
  }, 60_000);

  it('reports zeros for a workspace without calls', async () => {
    const ws = await api.workspace();
    const usage = await api.call('GET', '/api/v1/usage', { key: ws.key });
    expect(usage.body.data.overview).toEqual({ total_requests: 0, successful_requests: 0, failed_requests: 0, success_rate_pct: 0, avg_latency_ms: 0 });
    expect(usage.body.data.daily).toEqual([]);
  });

  it.each(['0', '91', '1.5', 'abc', '-3'])('rejects days=%s', async (days) => {
    const ws = await api.workspace();
    const reply = await api.call('GET', `/api/v1/usage?days=${days}`, { key: ws.key });
    expect(reply.status).toBe(400);
    expect(reply.body.error).toMatchObject({ code: 'validation_error', details: [{ field: 'days', message: expect.any(String) }] });
  });

  describe("a day's counts on the rate window (contract §9, counted by the admission's write)", () => {
    const DAY_MS = 86_400_000;
    const midnight = Math.floor(Date.now() / DAY_MS) * DAY_MS;
    const [yesterday, today] = [utcDate(new Date(midnight - DAY_MS)), utcDate(new Date(midnight))];
    const roomy = async () => 10_000;
    const count = { requests: 1, latencyMsSum: 10, latencies: 1 };
    const daysOf = async (ws: string) => usageDays(ws, yesterday, today, await windowDayCounts(ws));

    it("move into the day's usage item when the next day's first window starts", async () => {
      const { id } = await api.workspace();
      for (let i = 0; i < 3; i++) await admit(id, roomy, count, midnight - 1_500 + i * 600);
      expect(await daysOf(id)).toEqual([{ date: yesterday, total_requests: 3, failed_requests: 0, latency_ms_sum: 30, latency_count: 3 }]);
      for (let i = 0; i < 2; i++) await admit(id, roomy, count, midnight + 200 + i * 1_000);
      expect(await daysOf(id)).toEqual([
        { date: yesterday, total_requests: 3, failed_requests: 0, latency_ms_sum: 30, latency_count: 3 },
        { date: today, total_requests: 2, failed_requests: 0, latency_ms_sum: 20, latency_count: 2 },
      ]);
    });

    it('start from a window item written before the counts, through a day of requests counted only once answered', async () => {
      const { id } = await api.workspace();
      const second = Math.floor((midnight - 2_000) / 1000);
      // The item as the rate limit wrote it before it counted usage (docs/data-model.md, rate window): no day, no counters.
      await db().send(new PutCommand({ TableName: tableName(), Item: { PK: `WS#${id}#RATE`, SK: 'RATE', second, admitted: 1, previous: 0, room: 100 } }));
      expect(await admit(id, roomy, undefined, second * 1000 + 500)).toMatchObject({ admitted: true });
      expect(await admit(id, roomy, count, midnight + 500)).toMatchObject({ admitted: true });
      expect(await admit(id, roomy, count, midnight + 1_500)).toMatchObject({ admitted: true });
      expect(await daysOf(id)).toEqual([{ date: today, total_requests: 2, failed_requests: 0, latency_ms_sum: 20, latency_count: 2 }]);
    });

    it('are added once by a reader that saw them on the window before they moved', async () => {
      const { id } = await api.workspace();
      await admit(id, roomy, count, midnight - 1_500);
      const seenBefore = await windowDayCounts(id);
      expect(seenBefore).toEqual({ day: yesterday, requests: 1, latencyMsSum: 10, latencies: 1 });
      await admit(id, roomy, count, midnight + 500);
      expect(await usageDays(id, yesterday, today, seenBefore)).toEqual([
        { date: yesterday, total_requests: 1, failed_requests: 0, latency_ms_sum: 10, latency_count: 1 },
      ]);
    });

    it("count each admitted request once, and move exactly once, when admissions of both days race the new day's start", async () => {
      const { id } = await api.workspace();
      await admit(id, roomy, count, midnight - 2_000);
      // More at once than the local stack serves: the day's first windows are started by many, and only one may move the counts.
      const outcomes = await Promise.all(Array.from({ length: 160 }, (_, i) => admit(id, roomy, count, midnight + (i % 2 ? -400 : 300))));
      // A start contended beyond its tries refuses rather than admits unchecked: a refused request is not counted.
      const admitted = 1 + outcomes.filter((outcome) => outcome.admitted).length;
      expect(admitted).toBeGreaterThan(80);
      const days = await daysOf(id);
      const summed = (field: 'total_requests' | 'latency_count' | 'latency_ms_sum') => days.reduce((sum, day) => sum + day[field], 0);
      expect({ requests: summed('total_requests'), latencies: summed('latency_count'), latencySum: summed('latency_ms_sum') }).toEqual({
        requests: admitted,
        latencies: admitted,
        latencySum: admitted * 10,
      });
      expect(days.map((day) => day.date)).toEqual([yesterday, today]);
    });
  });
});
