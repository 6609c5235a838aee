import { applyStatus } from '#shared/domain/messages/status';
import { useTestApi, type TestWorkspace } from '../support/api';
import { simulatorControl } from '../support/simulator';
import { eventually } from '../support/wait';

const api = useTestApi({ runtime: true });
const simulator = simulatorControl(() => api.simulator.url);

async function send(ws: TestWorkspace, to: string): Promise<string> {
  return (await api.call('POST', '/api/v1/messages', { key: ws.key, body: { to, template: 'hello_world' } })).body.data.message_id;
}
const get = async (ws: TestWorkspace, id: string) => (await api.call('GET', `/api/v1/messages/${id}`, { key: ws.key })).body.data;
const total = async (ws: TestWorkspace, query: string) => (await api.call('GET', `/api/v1/messages?${query}`, { key: ws.key })).body.pagination.totalCount;
/** The totals of several filters, once they equal `expected` (they trail the messages by the stream's delay), else the last read. */
const settledTotals = (ws: TestWorkspace, expected: Record<string, number>) =>
  eventually(
    async () => Object.fromEntries(await Promise.all(Object.keys(expected).map(async (query) => [query, await total(ws, query)]))),
    (totals) => JSON.stringify(totals) === JSON.stringify(expected),
  ).catch(async () => Object.fromEntries(await Promise.all(Object.keys(expected).map(async (query) => [query, await total(ws, query)]))));

describe('status reports', () => {
  it('never move a message backwards, however shuffled and repeated; counts stay exact', async () => {
    const ws = await api.workspace();
    await api.call('POST', '/api/v1/templates/sync', { key: ws.key });
    await simulator.faults({ reorder_statuses: true, duplicate_statuses: true });
    try {
      const ids = await Promise.all(['+14155550301', '+14155550302', '+14155550303', '+14155559998', '+14155559999'].map((to) => send(ws, to)));
      const expected = ['read', 'read', 'read', 'delivered', 'failed'];
      // Wait until every report has been applied: each final status with all the timestamps it implies.
      const messages = await eventually(
        () => Promise.all(ids.map((id) => get(ws, id))),
        (all) => all.every((m, i) => m.status === expected[i] && m.metadata.sent_at && (expected[i] !== 'read' || m.metadata.delivered_at)),
      );
      expect(messages[3].metadata.read_at).toBeNull();
      expect(messages[4].error).toMatchObject({ code: 131026 });
      await new Promise((resolve) => setTimeout(resolve, 500)); // late duplicates change nothing
      expect((await Promise.all(ids.map((id) => get(ws, id)))).map((m) => m.status)).toEqual(expected);
      const totals = { 'status=read': 3, 'status=delivered': 1, 'status=failed': 1, 'status=sent': 0, 'status=queued': 0, 'direction=outbound': 5 };
      expect(await settledTotals(ws, totals)).toEqual(totals);
    } finally {
      await simulator.resetFaults();
    }
  });

  it('fill a late timestamp without changing the status; failed only from queued or sent', async () => {
    const ws = await api.workspace();
    await api.call('POST', '/api/v1/templates/sync', { key: ws.key });
    await simulator.faults({ no_webhooks: true });
    try {
      const id = await send(ws, '+14155550304');
      await eventually(
        () => get(ws, id),
        (m) => m.status === 'sent',
      );
      await applyStatus(ws.id, id, { status: 'read', at: '2026-01-01T00:00:03.000Z' });
      await applyStatus(ws.id, id, { status: 'sent', at: '2026-01-01T00:00:01.000Z' });
      await applyStatus(ws.id, id, { status: 'failed', at: '2026-01-01T00:00:04.000Z', error: { code: 131026, title: 'late' } });
      await applyStatus(ws.id, id, { status: 'delivered', at: '2026-01-01T00:00:02.000Z' });
      await applyStatus(ws.id, id, { status: 'delivered', at: '2026-01-01T00:00:09.000Z' });
      const message = await get(ws, id);
      expect(message.status).toBe('read');
      expect(message.error).toBeNull();
      expect(message.metadata).toMatchObject({ delivered_at: '2026-01-01T00:00:02.000Z', read_at: '2026-01-01T00:00:03.000Z', failed_at: null });
      const expected = { 'status=read': 1, 'status=sent': 0 };
      expect(await settledTotals(ws, expected)).toEqual(expected);
    } finally {
      await simulator.resetFaults();
    }
  });
});
