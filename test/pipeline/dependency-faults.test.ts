import { setNumberThroughput } from '#shared/domain/messages/send-rate';
import { mapLimit } from '#shared/concurrency';
import type { Reply } from '#local/api-client';
import { useTestApi } from '../support/api';
import { startReceiver } from '../support/receiver';
import { simulatorControl } from '../support/simulator';
import { eventually } from '../support/wait';

process.env.SEND_BACKOFF_SCALE = '0.05';
process.env.GRAPH_TIMEOUT_MS = '2000';
process.env.AMBIGUOUS_WAIT_SECONDS = '30';
// A receive whose answer the proxy drops hides its jobs for the queue's visibility time-out: 22 s for sends here, not 90.
process.env.QUEUE_VISIBILITY_SCALE = '0.25';
const api = useTestApi({ runtime: true, statusIntervalMs: 30, dependencyFaults: true });
const simulator = simulatorControl(() => api.simulator.url);

const RANK: Record<string, number> = { queued: 0, sent: 1, delivered: 2, read: 3, failed: 3 };
const SUBSCRIBED = ['message.sent', 'message.delivered', 'message.read', 'message.failed', 'campaign.completed'];
const DYNAMODB_FAULTS = { throttle_share: 0.2, server_error_share: 0.05, latency_share: 0.1, latency_ms: 200, drop_share: 0.02 };
const SQS_FAULTS = { throttle_share: 0.1, server_error_share: 0.02, drop_share: 0.02 };

/**
 * Faults in the service's own dependencies (issue 23, docs/limits.md): DynamoDB throttling,
 * 500s, latency and connections dropped after the request was applied, SQS likewise, with the
 * platform refusing 30 % of sends on top. Nothing may be lost, sent twice, or left unfinished.
 */
describe('faults in our own dependencies', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => {
    api.dependencies.dynamodb.setFaults({ throttle_share: 0, server_error_share: 0, latency_share: 0, drop_share: 0 });
    api.dependencies.sqs.setFaults({ throttle_share: 0, server_error_share: 0, drop_share: 0 });
    await simulator.resetFaults();
    await receiver?.stop();
  });

  it('200 singles and a 300-recipient campaign under DynamoDB and SQS faults and 30 % platform 429s: all final, one platform request each, no regression, exact metrics, every event delivered', async () => {
    const ws = await api.workspaceWithTemplates();
    await setNumberThroughput(ws.phoneNumberId, 100);
    const subscription = await api.call('POST', '/api/v1/webhooks', { key: ws.key, body: { url: receiver.url, events: SUBSCRIBED } });
    expect(subscription.status).toBe(201);
    const campaign = (await api.call('POST', '/api/v1/campaigns', { key: ws.key, body: { name: 'Under dependency faults', template_name: 'hello_world' } }))
      .body.data;

    await simulator.faults({ rate_limit_share: 0.3 });
    api.dependencies.dynamodb.setFaults(DYNAMODB_FAULTS);
    api.dependencies.sqs.setFaults(SQS_FAULTS);

    // As a careful client does: an answer that is a server error, or says the twin request is still running, is asked again with the same
    // Idempotency-Key; a 429 (the rate limit, or its window item throttled past the SDK's retries) is asked again after its Retry-After.
    let clientRetries = 0;
    let rateLimited = 0;
    const untilAnswered = async (ask: () => Promise<Reply>): Promise<Reply> => {
      for (let attempt = 0; ; attempt++) {
        const reply = await ask();
        const limited = reply.status === 429 && reply.body.error?.code === 'rate_limited';
        const retryable = limited || reply.status >= 500 || (reply.status === 409 && reply.body.error?.code === 'idempotency_key_in_use');
        if (!retryable || attempt === 30) return reply;
        if (limited) rateLimited++;
        else clientRetries++;
        await new Promise((resolve) => setTimeout(resolve, limited ? Number(reply.headers.get('retry-after') ?? 1) * 1000 : 200));
      }
    };
    const singles = Array.from({ length: 200 }, (_, i) => ({ to: `+1415557${String(i).padStart(4, '0')}`, key: `dependency-fault-${i}` }));
    const audience = Array.from({ length: 300 }, (_, i) => ({ phone: `+1415556${String(5000 + i)}` }));
    const [replies, launch] = await Promise.all([
      mapLimit(singles, 20, (single) =>
        untilAnswered(() =>
          api.call('POST', '/api/v1/messages', { key: ws.key, body: { to: single.to, template: 'hello_world' }, headers: { 'Idempotency-Key': single.key } }),
        ),
      ),
      untilAnswered(() =>
        api.call('POST', `/api/v1/campaigns/${campaign.id}/launch`, {
          key: ws.key,
          body: { recipients: audience },
          headers: { 'Idempotency-Key': `launch-${campaign.id}` },
        }),
      ),
    ]);
    expect(launch.status).toBe(202);
    expect(replies.map((r) => r.status)).toEqual(Array(200).fill(202));

    // Statuses seen again and again until every message is final; faults stay on while we read.
    const highest = new Map<string, number>();
    let regressions = 0;
    const snapshot = async () => {
      const seen: { id: string; status: string }[] = [];
      let cursor: string | null = null;
      do {
        const page: Reply = await untilAnswered(() =>
          api.call('GET', `/api/v1/messages?pageSize=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { key: ws.key }),
        );
        seen.push(...page.body.data);
        cursor = page.body.pagination.nextCursor;
      } while (cursor);
      for (const m of seen) {
        if (RANK[m.status] < (highest.get(m.id) ?? 0)) regressions++;
        highest.set(m.id, Math.max(highest.get(m.id) ?? 0, RANK[m.status]));
      }
      return seen;
    };
    // Waited for, then measured whatever the outcome, so a miss prints what was missing.
    let final: { id: string; status: string; phone_number: string }[] = [];
    await eventually(
      async () => (final = (await snapshot()) as typeof final),
      (all) => all.length === 500 && all.every((m) => m.status === 'read' || m.status === 'failed'),
      420_000,
    ).catch(() => undefined);
    const readResults = async () => (await untilAnswered(() => api.call('GET', `/api/v1/campaigns/${campaign.id}/results`, { key: ws.key }))).body.data;
    // Completed once every message left `queued`; the last status reports are counted by the stream step after that.
    const settled = (r: Awaited<ReturnType<typeof readResults>>) => r.status === 'completed' && r.metrics.read + r.metrics.failed === 300;
    const results = await eventually(readResults, settled, 60_000).catch(readResults);

    const accepted = ((await (await fetch(`${api.simulator.url}/_simulate/messages`)).json()) as { data: { to: string }[] }).data;
    const perRecipient = new Map<string, number>();
    for (const send of accepted) perRecipient.set(send.to, (perRecipient.get(send.to) ?? 0) + 1);
    const recipients = [...singles.map((s) => s.to), ...audience.map((a) => a.phone)].map((phone) => phone.slice(1));
    const listed = new Set(final.map((m) => m.phone_number));
    const unlisted = recipients.filter((to) => !listed.has(to));
    const lost = recipients.filter((to) => !perRecipient.has(to)).length;
    const duplicated = recipients.filter((to) => (perRecipient.get(to) ?? 0) > 1).length;
    const statuses = final.reduce<Record<string, number>>((counts, m) => ({ ...counts, [m.status]: (counts[m.status] ?? 0) + 1 }), {});
    const { metrics } = results;
    const metricSum = metrics.pending + metrics.sent + metrics.delivered + metrics.read + metrics.failed;

    // Every event: sent, delivered and read for each message, and the campaign's completion, each once or more, always under one webhook-id.
    const expectedEvents = final.length * 3 + 1;
    const eventsDelivered = () => {
      const byEvent = new Map<string, Set<string>>();
      for (const request of receiver.received) {
        // message.* carry the single-message shape (its `id`), campaign.* the results shape.
        const body = JSON.parse(request.body) as { id: string; type: string; data: { id?: string; campaign_id?: string } };
        const subject = `${body.type}:${body.data.id ?? body.data.campaign_id}`;
        byEvent.set(subject, (byEvent.get(subject) ?? new Set()).add(String(request.headers['webhook-id'])));
      }
      return byEvent;
    };
    const delivered = await eventually(
      async () => eventsDelivered(),
      (byEvent) => byEvent.size >= expectedEvents,
      120_000,
    ).catch(eventsDelivered);
    const idsPerEvent = [...delivered.values()].map((ids) => ids.size);
    const { dynamodb, sqs } = api.dependencies;

    console.log(
      [
        'Faults in our own dependencies: DynamoDB 20% throttled, 5% 500, 10% +200 ms, 2% dropped after applying; SQS 10% throttled, 2% 500, 2% dropped; platform 30% 429',
        `  DynamoDB calls: ${JSON.stringify(dynamodb.counts)}; SQS calls: ${JSON.stringify(sqs.counts)}; client retries of 5xx/409: ${clientRetries}, of 429 rate_limited: ${rateLimited}`,
        `  messages: ${final.length} (200 singles, 300 campaign); final statuses ${JSON.stringify(statuses)}`,
        `  accepted platform requests: ${accepted.length} for ${recipients.length} recipients; lost ${lost}, duplicated ${duplicated}`,
        `  status regressions seen: ${regressions}; recipients without a listed message: ${unlisted.length} ${unlisted.slice(0, 5).join(' ')}`,
        `  campaign ${results.status}: ${JSON.stringify(metrics)}; sum ${metricSum} of ${metrics.total_messages}`,
        `  webhook events by type: ${JSON.stringify([...delivered.keys()].reduce<Record<string, number>>((n, k) => ({ ...n, [k.split(':')[0]]: (n[k.split(':')[0]] ?? 0) + 1 }), {}))}`,
        `  webhook events: ${delivered.size} distinct of ${expectedEvents} expected, ${receiver.received.length} deliveries; events under more than one webhook-id: ${idsPerEvent.filter((n) => n > 1).length}`,
      ].join('\n'),
    );

    expect(statuses).toEqual({ read: 500 });
    expect(lost).toBe(0);
    expect(duplicated).toBe(0);
    expect(accepted).toHaveLength(500);
    expect(regressions).toBe(0);
    expect(metrics).toMatchObject({ total_messages: 300, read: 300, pending: 0, failed: 0 });
    expect(metricSum).toBe(metrics.total_messages);
    expect(delivered.size).toBe(expectedEvents);
    expect(idsPerEvent.every((n) => n === 1)).toBe(true);
    expect(dynamodb.counts.throttled).toBeGreaterThan(0);
    expect(dynamodb.counts.dropped).toBeGreaterThan(0);
    expect(sqs.counts.dropped + sqs.counts.throttled).toBeGreaterThan(0);
  }, 720_000);
});
