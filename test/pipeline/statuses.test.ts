import * as statusModule from '#shared/domain/messages/status';
import { applyReport, applyStatus } from '#shared/domain/messages/status';
import * as messageModule from '#shared/data/message';
import { messageByPlatformId } from '#shared/data/message';
import * as messageStatusModule from '#shared/data/message-status';
import { ownRateCard, setRateCard } from '#shared/domain/pricing/rate-cards';
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

/** A marketing message's pricing, as the platform reports it (PMP). */
const marketing = { pricing_model: 'PMP', category: 'marketing', type: 'regular', billable: true };

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

  it("applied without a read (the report names the platform id the message holds), keep the same rules; priced by the message's own number", async () => {
    const ws = await api.workspace();
    await api.call('POST', '/api/v1/templates/sync', { key: ws.key });
    await simulator.faults({ no_webhooks: true });
    try {
      const [ordered, elsewhere, sentElsewhere, sentHere] = await Promise.all(
        ['+14155550341', '+5511987650342', '+5511987650343', '+14155550344'].map((to) => send(ws, to)),
      );
      const sent = await eventually(
        () => Promise.all([ordered, elsewhere, sentElsewhere, sentHere].map((id) => get(ws, id))),
        (all) => all.every((m) => m.status === 'sent' && m.provider_message_id),
      );
      const [wamid, elsewhereWamid, sentElsewhereWamid, sentHereWamid] = sent.map((m) => m.provider_message_id);
      const report = (status: 'sent' | 'delivered' | 'read' | 'failed', second: number, extra: object = {}) => ({
        status,
        at: `2026-11-01T00:00:0${second}.000Z`,
        providerMessageId: wamid,
        ...extra,
      });
      // Read before delivered, a late sent with pricing, a failed after read, a duplicate delivered: as applyStatus has them.
      await applyReport(ws.id, ordered, report('read', 3), '14155550341');
      await applyReport(ws.id, ordered, report('sent', 1, { pricing: marketing }), '14155550341');
      await applyReport(ws.id, ordered, report('failed', 4, { error: { code: 131026, title: 'late' } }), '14155550341');
      await applyReport(ws.id, ordered, report('delivered', 2, { pricing: { ...marketing, type: 'free_customer_service' } }), '14155550341');
      await applyReport(ws.id, ordered, report('delivered', 9), '14155550341');
      expect(await get(ws, ordered)).toMatchObject({
        status: 'read',
        error: null,
        pricing: marketing,
        cost: { amount: '0.0250', currency: 'USD', market: '1' },
        metadata: { delivered_at: '2026-11-01T00:00:02.000Z', read_at: '2026-11-01T00:00:03.000Z', failed_at: null },
      });
      // A report naming another recipient than the message's: the cost is still the message's own market (Brazil's).
      await applyReport(ws.id, elsewhere, { ...report('delivered', 2, { pricing: marketing }), providerMessageId: elsewhereWamid }, '14155550342');
      expect(await get(ws, elsewhere)).toMatchObject({ status: 'delivered', cost: { market: '55' } });
      // So is a `sent` report's, written with its time of sending on the message its worker sent; a second one changes nothing.
      const sentReport = { ...report('sent', 1, { pricing: marketing }), providerMessageId: sentElsewhereWamid };
      await applyReport(ws.id, sentElsewhere, sentReport, '14155550343');
      expect((await get(ws, sentElsewhere)).metadata.sent_at).toBe('2026-11-01T00:00:01.000Z');
      await applyReport(ws.id, sentElsewhere, { ...sentReport, pricing: { ...marketing, category: 'utility' } }, '14155550343');
      await applyReport(ws.id, sentElsewhere, { ...report('delivered', 2), providerMessageId: sentElsewhereWamid }, '14155550343');
      expect(await get(ws, sentElsewhere)).toMatchObject({ status: 'delivered', pricing: marketing, cost: { market: '55' } });
      // The usual case: a `sent` report finds its message sent by its worker, and records its pricing and time of sending.
      await applyReport(ws.id, sentHere, { ...report('sent', 5, { pricing: marketing }), providerMessageId: sentHereWamid }, '14155550344');
      expect(await get(ws, sentHere)).toMatchObject({
        status: 'sent',
        pricing: marketing,
        metadata: { sent_at: '2026-11-01T00:00:05.000Z', delivered_at: null },
      });
      const expected = { 'status=read': 1, 'status=delivered': 2, 'status=sent': 1, 'status=failed': 0 };
      expect(await settledTotals(ws, expected)).toEqual(expected);
    } finally {
      await simulator.resetFaults();
    }
  });

  it("a `sent` report that overtakes its worker's write moves the message itself, with its platform id found by replies; the worker's write then changes nothing", async () => {
    const ws = await api.workspaceWithTemplates();
    await simulator.faults({ no_webhooks: true });
    const realApply = statusModule.applyStatus;
    let overtaken: string | undefined;
    let beforeWorkerWrite: unknown;
    let lookupBeforeWorkerWrite: unknown;
    let workerWrote = false;
    let reportMoves = 0;
    const moves = jest.spyOn(messageStatusModule, 'moveStatus');
    // The worker's `sent` write waits until the platform's `sent` report, with pricing, has been applied.
    const worker = jest.spyOn(statusModule, 'applyStatus').mockImplementation(async (wsId, id, report, read) => {
      if (wsId !== ws.id || report.status !== 'sent' || !report.providerMessageId || overtaken) return realApply(wsId, id, report, read);
      overtaken = report.providerMessageId;
      const movesBefore = moves.mock.calls.length;
      await applyReport(
        wsId,
        id,
        { status: 'sent', at: '2026-11-01T00:00:01.000Z', providerMessageId: report.providerMessageId, pricing: marketing },
        '14155550351',
      );
      reportMoves = moves.mock.calls.length - movesBefore;
      beforeWorkerWrite = await get(ws, id);
      // Put by the report: the worker, which puts it first in its write, may not live to.
      lookupBeforeWorkerWrite = await messageByPlatformId(wsId, report.providerMessageId);
      const applied = await realApply(wsId, id, report, read);
      workerWrote = true;
      return applied;
    });
    try {
      const id = await send(ws, '+14155550351');
      await eventually(
        async () => workerWrote,
        (wrote) => wrote,
      );
      const message = await get(ws, id);
      // The worker's write came after: the report's move stands, sent at the platform's time, made by the write that records its pricing.
      expect(beforeWorkerWrite).toMatchObject({ status: 'sent', provider_message_id: overtaken, pricing: marketing });
      expect(reportMoves).toBe(0);
      expect(lookupBeforeWorkerWrite).toEqual({ id, campaign_id: null });
      expect(message).toEqual(beforeWorkerWrite);
      expect(message).toMatchObject({
        provider_message_id: overtaken,
        pricing: marketing,
        cost: null, // charged once delivered
        metadata: { sent_at: '2026-11-01T00:00:01.000Z', delivered_at: null },
      });
      // Counted once: the report's move, not the worker's.
      const expected = { 'status=sent': 1, 'status=queued': 0 };
      expect(await settledTotals(ws, expected)).toEqual(expected);
      // Later reports go on from it.
      await applyReport(ws.id, id, { status: 'delivered', at: '2026-11-01T00:00:02.000Z', providerMessageId: overtaken }, '14155550351');
      expect(await get(ws, id)).toMatchObject({
        status: 'delivered',
        pricing: marketing,
        cost: { amount: '0.0250', currency: 'USD', market: '1' },
        metadata: { sent_at: '2026-11-01T00:00:01.000Z', delivered_at: '2026-11-01T00:00:02.000Z' },
      });
    } finally {
      worker.mockRestore();
      moves.mockRestore();
      await simulator.resetFaults();
    }
  });

  it("a `sent` report whose worker gave up before the platform's answer, failing after its write, puts the platform-id item when it is delivered again", async () => {
    const ws = await api.workspaceWithTemplates();
    await simulator.faults({ no_webhooks: true });
    const realApply = statusModule.applyStatus;
    let wamid: string | undefined;
    // The worker never writes what the platform answered (as after a time-out): only the report can.
    const worker = jest.spyOn(statusModule, 'applyStatus').mockImplementation(async (wsId, id, report, read) => {
      if (wsId !== ws.id || report.status !== 'sent' || !report.providerMessageId) return realApply(wsId, id, report, read);
      wamid = report.providerMessageId;
      throw new Error('Worker stopped before recording the platform answer');
    });
    const failedPut = jest.spyOn(messageModule, 'putPlatformId').mockRejectedValueOnce(new Error('DynamoDB unavailable'));
    try {
      const id = await send(ws, '+14155550352');
      await eventually(
        async () => wamid,
        (seen) => seen !== undefined,
      );
      worker.mockRestore();
      const sentReport = { status: 'sent' as const, at: '2026-11-01T00:00:01.000Z', providerMessageId: wamid!, pricing: marketing };
      await expect(applyReport(ws.id, id, sentReport, '14155550352')).rejects.toThrow('DynamoDB unavailable');
      expect(await get(ws, id)).toMatchObject({ status: 'sent', provider_message_id: wamid, pricing: marketing });
      expect(await messageByPlatformId(ws.id, wamid!)).toBeUndefined();
      // The queue hands the report over again.
      await applyReport(ws.id, id, sentReport, '14155550352');
      expect(await messageByPlatformId(ws.id, wamid!)).toEqual({ id, campaign_id: null });
      expect(await get(ws, id)).toMatchObject({ status: 'sent', provider_message_id: wamid, metadata: { sent_at: '2026-11-01T00:00:01.000Z' } });
    } finally {
      worker.mockRestore();
      failedPut.mockRestore();
      await simulator.resetFaults();
    }
  });

  it('record the first pricing reported and its cost, shown once delivered; shuffled duplicates change nothing', async () => {
    const ws = await api.workspace();
    await api.call('POST', '/api/v1/templates/sync', { key: ws.key });
    await simulator.faults({ reorder_statuses: true, duplicate_statuses: true });
    try {
      // hello_world is a UTILITY template: North America's utility rate, Brazil's; ...9999 fails after sent.
      const ids = await Promise.all(['+14155550311', '+5511987650312', '+14155559999'].map((to) => send(ws, to)));
      const messages = await eventually(
        () => Promise.all(ids.map((id) => get(ws, id))),
        (all) => all[0].status === 'read' && all[1].status === 'read' && all[2].status === 'failed' && all.every((m) => m.pricing),
      );
      const utility = { pricing_model: 'PMP', category: 'utility', type: 'regular', billable: true };
      expect(messages.map((m) => m.pricing)).toEqual([utility, utility, utility]);
      expect(messages.map((m) => m.cost)).toEqual([
        { amount: '0.0034', currency: 'USD', market: '1' },
        { amount: '0.0068', currency: 'USD', market: '55' },
        null, // priced when sent, but the platform charges delivered messages only
      ]);
      const listed = (await api.call('GET', '/api/v1/messages?direction=outbound', { key: ws.key })).body.data;
      expect(listed.find((m: { id: string }) => m.id === ids[1])).toMatchObject({ pricing: utility, cost: { amount: '0.0068' } });
    } finally {
      await simulator.resetFaults();
    }
  });

  it('take pricing from whichever report brings it first; later, other or incomplete pricing changes nothing', async () => {
    const ws = await api.workspace();
    await api.call('POST', '/api/v1/templates/sync', { key: ws.key });
    await simulator.faults({ no_webhooks: true });
    try {
      const [late, older, unknown] = await Promise.all(['+14155550321', '+14155550322', '+14155550323'].map((to) => send(ws, to)));
      await eventually(
        () => Promise.all([late, older, unknown].map((id) => get(ws, id))),
        (all) => all.every((m) => m.status === 'sent'),
      );
      const marketing = { pricing_model: 'PMP', category: 'marketing', type: 'regular', billable: null };
      // Read comes without pricing, the late delivered brings it, a duplicate with other pricing is ignored.
      await applyStatus(ws.id, late, { status: 'read', at: '2026-11-01T00:00:03.000Z' });
      expect((await get(ws, late)).pricing).toBeNull();
      await applyStatus(ws.id, late, { status: 'delivered', at: '2026-11-01T00:00:02.000Z', pricing: marketing });
      await applyStatus(ws.id, late, { status: 'delivered', at: '2026-11-01T00:00:02.000Z', pricing: { ...marketing, type: 'free_customer_service' } });
      await applyStatus(ws.id, late, { status: 'read', at: '2026-11-01T00:00:03.000Z', pricing: { ...marketing, category: 'utility' } });
      // An older version: billable without type. An unknown type: recorded as reported, not priced.
      await applyStatus(ws.id, older, { status: 'delivered', at: '2026-11-01T00:00:02.000Z', pricing: { ...marketing, type: null, billable: false } });
      await applyStatus(ws.id, unknown, { status: 'delivered', at: '2026-11-01T00:00:02.000Z', pricing: { ...marketing, type: 'loyalty_bonus' } });
      const [lateMessage, olderMessage, unknownMessage] = await Promise.all([late, older, unknown].map((id) => get(ws, id)));
      expect(lateMessage).toMatchObject({ status: 'read', pricing: marketing, cost: { amount: '0.0250', currency: 'USD', market: '1' } });
      expect(olderMessage).toMatchObject({ pricing: { ...marketing, type: null, billable: false }, cost: { amount: '0.0000' } });
      expect(unknownMessage).toMatchObject({ pricing: { ...marketing, type: 'loyalty_bonus' }, cost: null });
    } finally {
      await simulator.resetFaults();
    }
  });

  it("price by the workspace's own card once the operator sets one; a market not on it gets the card's default", async () => {
    const ws = await api.workspace();
    await api.call('POST', '/api/v1/templates/sync', { key: ws.key });
    await expect(setRateCard(ws.id, { currency: 'EUR', default: { utility: 0.01 }, markets: {} })).rejects.toMatchObject({
      code: 'validation_error',
      details: [{ field: 'default.utility' }],
    });
    await expect(setRateCard('no-such-workspace', { currency: 'EUR', default: {}, markets: {} })).rejects.toMatchObject({ code: 'not_found' });
    const card = { currency: 'EUR', default: { utility: '0.0100' }, markets: { '55': { utility: '0.0050' } } };
    await setRateCard(ws.id, card);
    expect(await ownRateCard(ws.id)).toEqual(card);
    await simulator.faults({ no_webhooks: true });
    try {
      const ids = await Promise.all(['+5511987650331', '+14155550332'].map((to) => send(ws, to)));
      await eventually(
        () => Promise.all(ids.map((id) => get(ws, id))),
        (all) => all.every((m) => m.status === 'sent'),
      );
      const utility = { pricing_model: 'PMP', category: 'utility', type: 'regular', billable: true };
      await Promise.all(ids.map((id) => applyStatus(ws.id, id, { status: 'delivered', at: '2026-11-01T00:00:02.000Z', pricing: utility })));
      const costs = (await Promise.all(ids.map((id) => get(ws, id)))).map((m) => m.cost);
      expect(costs).toEqual([
        { amount: '0.0050', currency: 'EUR', market: '55' },
        { amount: '0.0100', currency: 'EUR', market: 'default' },
      ]);
    } finally {
      await simulator.resetFaults();
    }
  });
});
