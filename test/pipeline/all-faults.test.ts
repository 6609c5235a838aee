import * as statusModule from '#shared/domain/messages/status';
import { setNumberThroughput } from '#shared/domain/messages/send-rate';
import { mapLimit } from '#shared/concurrency';
import { useTestApi } from '../support/api';
import { simulatorControl } from '../support/simulator';
import { eventually } from '../support/wait';

process.env.SEND_BACKOFF_SCALE = '0.05';
process.env.GRAPH_TIMEOUT_MS = '500';
// Scaled down from 10 minutes; long enough for the reports of a timed-out send to arrive under this load.
process.env.AMBIGUOUS_WAIT_SECONDS = '30';
process.env.PAIR_INTERVAL_MS = '500';
const api = useTestApi({ runtime: true, statusIntervalMs: 30 });
const simulator = simulatorControl(() => api.simulator.url);

const RANK: Record<string, number> = { queued: 0, sent: 1, delivered: 2, read: 3, failed: 3 };

/**
 * Contract §14 under every fault at once: throughput refusals (429 / 130429), server errors,
 * time-outs after acceptance, pair-limit refusals, duplicated and reordered reports, and workers
 * that crash between the platform's answer and their write.
 */
describe('every fault at once (contract §14)', () => {
  afterAll(() => simulator.resetFaults());

  it('200 singles (some with repeated Idempotency-Keys) and a 300-recipient campaign: every message final, one accepted request per recipient, no regression, exact metrics', async () => {
    const ws = await api.workspaceWithTemplates();
    await setNumberThroughput(ws.phoneNumberId, 100);
    await simulator.faults({
      rate_limit_share: 0.3,
      server_error_share: 0.1,
      timeout_share: 0.1,
      pair_limit_share: 0.05,
      duplicate_statuses: true,
      reorder_statuses: true,
    });
    let crashes = 0;
    const realApply = statusModule.applyStatus;
    // A send worker dies after the platform accepted its call, before writing `sent` (its claim stays, its job comes back later).
    const crash = jest.spyOn(statusModule, 'applyStatus').mockImplementation(async (...args) => {
      const [, , report, read] = args;
      if (read && report.status === 'sent' && report.providerMessageId && Math.random() < 0.1) {
        crashes++;
        throw new Error('Worker crashed between the platform call and its write');
      }
      return realApply(...args);
    });

    try {
      const singles = Array.from({ length: 200 }, (_, i) => ({ to: `+1415559${String(i).padStart(4, '0')}`, key: `fault-${i}` }));
      // Every fourth single is posted twice at once with the same key.
      const posts = singles.flatMap((single, i) => (i % 4 === 0 ? [single, single] : [single]));
      const campaign = (await api.call('POST', '/api/v1/campaigns', { key: ws.key, body: { name: 'Under faults', template_name: 'hello_world' } })).body.data;
      const audience = Array.from({ length: 300 }, (_, i) => ({ phone: `+1415558${String(5000 + i)}` }));

      // As a client does: a request whose twin is still being processed (409 idempotency_key_in_use), that was over the
      // rate (429), or that failed on our side (5xx: a loaded runner can time DynamoDB Local out) is repeated a moment
      // later with the same key.
      const post = async (p: { to: string; key: string }) => {
        for (;;) {
          const reply = await api.call('POST', '/api/v1/messages', {
            key: ws.key,
            body: { to: p.to, template: 'hello_world' },
            headers: { 'Idempotency-Key': p.key },
          });
          const inUse = reply.status === 409 && reply.body.error.code === 'idempotency_key_in_use';
          if (!inUse && reply.status !== 429 && reply.status < 500) return reply;
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      };
      const [replies, launch] = await Promise.all([
        mapLimit(posts, 20, post),
        api.call('POST', `/api/v1/campaigns/${campaign.id}/launch`, { key: ws.key, body: { recipients: audience } }),
      ]);
      expect(launch.status).toBe(202);
      expect(replies.filter((r) => r.status !== 202).map((r) => ({ status: r.status, error: r.body.error }))).toEqual([]);
      const byKey = new Map<string, Set<string>>();
      replies.forEach((r, i) => byKey.set(posts[i].key, (byKey.get(posts[i].key) ?? new Set()).add(r.body.data.message_id)));
      expect([...byKey.values()].every((ids) => ids.size === 1)).toBe(true);
      expect(byKey.size).toBe(200);

      // Every message's status, seen again and again until all are final: a status seen lower than before is a regression.
      const highest = new Map<string, number>();
      let regressions = 0;
      const snapshot = async () => {
        const seen: { id: string; status: string }[] = [];
        let cursor: string | null = null;
        do {
          const page = await api.call('GET', `/api/v1/messages?pageSize=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { key: ws.key });
          seen.push(...page.body.data);
          cursor = page.body.pagination.nextCursor;
        } while (cursor);
        for (const m of seen) {
          if (RANK[m.status] < (highest.get(m.id) ?? 0)) regressions++;
          highest.set(m.id, Math.max(highest.get(m.id) ?? 0, RANK[m.status]));
        }
        return seen;
      };
      const final = await eventually(snapshot, (all) => all.length === 500 && all.every((m) => m.status === 'read' || m.status === 'failed'), 240_000);

      const results = await eventually(
        async () => (await api.call('GET', `/api/v1/campaigns/${campaign.id}/results`, { key: ws.key })).body.data,
        // Completed once every message left `queued`; the last status reports are counted by the stream step after that.
        (r) => r.status === 'completed' && r.metrics.read + r.metrics.failed === 300,
        30_000,
      );
      const accepted = ((await (await fetch(`${api.simulator.url}/_simulate/messages`)).json()) as { data: { to: string }[] }).data;
      const perRecipient = new Map<string, number>();
      for (const send of accepted) perRecipient.set(send.to, (perRecipient.get(send.to) ?? 0) + 1);
      const recipients = [...singles.map((s) => s.to), ...audience.map((a) => a.phone)].map((phone) => phone.slice(1));
      const lost = recipients.filter((to) => !perRecipient.has(to)).length;
      const duplicated = recipients.filter((to) => (perRecipient.get(to) ?? 0) > 1).length;
      const statuses = final.reduce<Record<string, number>>((counts, m) => ({ ...counts, [m.status]: (counts[m.status] ?? 0) + 1 }), {});
      const { metrics } = results;
      const metricSum = metrics.pending + metrics.sent + metrics.delivered + metrics.read + metrics.failed;

      console.log(
        [
          'Every fault at once (contract §14): 30% 429/130429, 10% 5xx, 10% time-outs, 5% 131056, duplicated + reordered reports, 10% worker crashes after the platform call',
          `  messages: ${final.length} (200 singles from ${posts.length} POSTs, 300 campaign); final statuses ${JSON.stringify(statuses)}`,
          `  accepted platform requests: ${accepted.length} for ${recipients.length} recipients; lost ${lost}, duplicated ${duplicated}; other recipients ${perRecipient.size - recipients.length + lost}`,
          `  status regressions seen: ${regressions}; worker crashes injected: ${crashes}`,
          `  campaign ${results.status}: ${JSON.stringify(metrics)}; sum ${metricSum} of ${metrics.total_messages}`,
        ].join('\n'),
      );

      expect(statuses).toEqual({ read: 500 });
      expect(lost).toBe(0);
      expect(duplicated).toBe(0);
      expect(accepted).toHaveLength(500);
      expect(regressions).toBe(0);
      expect(crashes).toBeGreaterThan(0);
      expect(metrics).toMatchObject({ total_messages: 300, read: 300, pending: 0, failed: 0 });
      expect(metricSum).toBe(metrics.total_messages);
    } finally {
      crash.mockRestore();
    }
  }, 300_000);
});
