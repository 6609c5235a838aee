import type { Middleware } from 'openapi-fetch';
import { createMessagingClient, verifyWebhook, type MessagingClient } from '../../clients/typescript/src/index';
import { useTestApi, type TestWorkspace } from '../support/api';
import { checkReply } from '../support/openapi-check';
import { startReceiver } from '../support/receiver';
import { simulatorControl } from '../support/simulator';
import { eventually } from '../support/wait';
import { nextOpening } from '#shared/domain/campaigns/send-window';
import type { SendWindow } from '#shared/records/campaign';

/**
 * The README's walk-through, driven by the TypeScript client (clients/typescript: types generated
 * from the API document, openapi-fetch calls): every call below is typed by the document, and every
 * answer is also checked against it, as the test API's are.
 */

const api = useTestApi({ runtime: true });
const simulator = simulatorControl(() => api.simulator.url);

const checkedAgainstDocument: Middleware = {
  async onResponse({ request, response }) {
    const text = await response.clone().text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // Plain text: checked as such.
    }
    const url = new URL(request.url);
    checkReply(request.method, `${url.pathname}${url.search}`, { status: response.status, headers: response.headers, body });
  },
};

/** The answer's body on success; the status and error otherwise, as the failure. */
function ok<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.data === undefined) throw new Error(`${result.response.status}: ${JSON.stringify(result.error)}`);
  return result.data;
}

let ws: TestWorkspace;
let client: MessagingClient;

beforeAll(async () => {
  ws = await api.workspaceWithTemplates('pro');
  client = createMessagingClient({ baseUrl: api.baseUrl, apiKey: ws.key });
  client.use(checkedAgainstDocument);
});

describe("the README's walk-through with the generated client", () => {
  it('templates: the approved list, a status filter, a sync', async () => {
    const approved = ok(await client.GET('/api/v1/templates')).data;
    expect(approved.map((template) => template.name)).toContain('order_update');
    expect(approved.every((template) => template.status === 'APPROVED')).toBe(true);
    const pending = ok(await client.GET('/api/v1/templates', { params: { query: { status: 'PENDING' } } })).data;
    expect(pending.map((template) => template.name)).toEqual(['spring_sale']);
    expect(ok(await client.POST('/api/v1/templates/sync')).data.synced_count).toBeGreaterThan(0);
  });

  it('API keys: created with the secret shown once, listed masked, revoked', async () => {
    const created = ok(await client.POST('/api/v1/keys', { body: { name: 'CI', description: 'for the pipeline' } })).data;
    expect(created.api_key).toMatch(/^sk_live_/);
    const listed = ok(await client.GET('/api/v1/keys')).data;
    expect(listed.find((key) => key.id === created.id)).toEqual({ ...created, api_key: undefined, last_used_at: null });
    const revoked = ok(await client.DELETE('/api/v1/keys', { params: { query: { id: created.id } } })).data;
    expect(revoked).toMatchObject({ id: created.id, revoked: true });
  });

  it('contacts and groups', async () => {
    const ada = ok(
      await client.POST('/api/v1/contacts', { body: { phone_number: '+1 415 555 0111', name: 'Ada', tags: ['vip'], custom_fields: { city: 'London' } } }),
    );
    expect(ada.data.phone_number).toBe('14155550111');
    const updated = ok(
      await client.PATCH('/api/v1/contacts/{id}', { params: { path: { id: ada.data.id } }, body: { custom_fields: { city: null, tier: 2 } } }),
    ).data;
    expect(updated.custom_fields).toEqual({ tier: 2 });
    const imported = ok(
      await client.POST('/api/v1/contacts/bulk', { body: { contacts: [{ phone: '+1 415 555 0112', name: 'Grace' }, { phone: 'not a number' }] } }),
    ).data;
    expect(imported).toMatchObject({ total_submitted: 2, processed_count: 1, failed_count: 1 });
    const vip = ok(await client.GET('/api/v1/contacts', { params: { query: { tag: 'VIP' } } }));
    expect(vip.data.map((contact) => contact.name)).toEqual(['Ada']);
    expect(vip.pagination.totalCount).toBe(1);

    const group = ok(await client.POST('/api/v1/groups', { body: { name: 'Launch list' } })).data;
    const added = ok(
      await client.POST('/api/v1/groups/{id}/contacts', { params: { path: { id: group.id } }, body: { contact_ids: [ada.data.id, imported.contacts[0].id] } }),
    ).data;
    expect(added).toMatchObject({ added_count: 2, total_contacts: 2, not_found_ids: [] });
    const members = ok(await client.GET('/api/v1/groups/{id}/contacts', { params: { path: { id: group.id }, query: { pageSize: 1 } } }));
    expect(members.pagination).toEqual({ page: 1, pageSize: 1, totalCount: 2, hasMore: true });
    expect(ok(await client.GET('/api/v1/groups/{id}', { params: { path: { id: group.id } } })).data.contacts_count).toBe(2);
  });

  it('a template message with an Idempotency-Key: accepted, replayed, then read', async () => {
    const send = () =>
      client.POST('/api/v1/messages', {
        params: { header: { 'Idempotency-Key': 'order-A-17-shipped' } },
        body: { to: '+1 415 555 0101', template: 'order_update', variables: ['Ada', 'A-17'] },
      });
    const first = await send();
    expect(first.response.status).toBe(202);
    const accepted = ok(first).data;
    expect(accepted).toMatchObject({ recipient: '14155550101', status: 'queued', message_type: 'template', template: 'order_update' });
    const replay = await send();
    expect(replay.response.headers.get('Idempotent-Replayed')).toBe('true');
    expect(ok(replay).data).toEqual(accepted);

    const read = await eventually(
      async () => ok(await client.GET('/api/v1/messages/{id}', { params: { path: { id: accepted.message_id } } })).data,
      (message) => message.status === 'read',
    );
    expect(read.content).toBe('Hi Ada, your order A-17 has shipped.');
    expect(read.provider_message_id).toMatch(/^wamid\./);
    expect(read.metadata.read_at).not.toBeNull();
  });

  it('the list: filters, and pages by cursor', async () => {
    ok(await client.POST('/api/v1/messages', { body: { to: '+1 415 555 0102', template: 'hello_world' } }));
    const outbound = ok(await client.GET('/api/v1/messages', { params: { query: { direction: 'outbound', phone: '+1 415 555 0101' } } })).data;
    expect(outbound.map((message) => message.phone_number)).toEqual(['14155550101']);
    const first = ok(await client.GET('/api/v1/messages', { params: { query: { pageSize: 1 } } }));
    expect(first.pagination.nextCursor).toEqual(expect.any(String));
    const second = ok(await client.GET('/api/v1/messages', { params: { query: { pageSize: 1, cursor: first.pagination.nextCursor! } } }));
    expect(second.data[0].id).not.toBe(first.data[0].id);
  });

  it('free-form text inside the window the customer opened', async () => {
    const refused = await client.POST('/api/v1/messages', { body: { to: '14155550103', text: 'It is at the door.' } });
    expect(refused.error?.error.code).toBe('session_window_closed');
    await simulator.inbound({ phone_number_id: ws.phoneNumberId, from: '14155550103', text: 'Where is my order?', name: 'Lin' });
    const inbound = await eventually(
      async () => ok(await client.GET('/api/v1/messages', { params: { query: { direction: 'inbound', phone: '14155550103' } } })).data,
      (messages) => messages.length === 1,
    );
    expect(inbound[0]).toMatchObject({ status: 'received', message_type: 'text' });
    const reply = await client.POST('/api/v1/messages', { body: { to: '14155550103', text: 'It is at the door.', reply_to: inbound[0].id } });
    expect(ok(reply).data.message_type).toBe('text');
  });

  it('a campaign: created, launched, completed with its metrics', async () => {
    const campaign = ok(await client.POST('/api/v1/campaigns', { body: { name: 'Shipping notice', template_name: 'order_update' } })).data;
    expect(campaign.status).toBe('draft');
    const launch = await client.POST('/api/v1/campaigns/{id}/launch', {
      params: { path: { id: campaign.id }, header: { 'Idempotency-Key': `launch-${campaign.id}` } },
      body: {
        recipients: [
          { phone: '+1 415 555 0121', name: 'Ada', variables: ['{{name}}', 'A-17'] },
          { phone: '+1 415 555 0122', name: 'Grace' },
          { phone: '+1 415 555 9999', name: 'Bounce' },
        ],
        template_variables: ['{{name}}', 'for {{phone}}'],
      },
    });
    expect(launch.response.status).toBe(202);
    expect(ok(launch).data).toMatchObject({ status: 'running', total_recipients: 3 });

    const results = await eventually(
      async () => ok(await client.GET('/api/v1/campaigns/{id}/results', { params: { path: { id: campaign.id } } })).data,
      // Completed once every message is sent or further; the reads follow within a moment.
      (current) => current.status === 'completed' && current.metrics.read + current.metrics.failed === 3,
      30_000,
    );
    expect(results.metrics).toMatchObject({ total_messages: 3, read: 2, failed: 1, delivered_rate_pct: 67, read_rate_pct: 67 });
    const read = ok(await client.GET('/api/v1/messages', { params: { query: { campaign_id: campaign.id, status: 'read' } } })).data;
    expect(read).toHaveLength(2);
    expect(ok(await client.GET('/api/v1/campaigns')).data[0].id).toBe(campaign.id);

    // A test send: one number of the audience, one outside it; the campaign's results do not move.
    const finalResults = await eventually(
      async () => ok(await client.GET('/api/v1/campaigns/{id}/results', { params: { path: { id: campaign.id } } })).data,
      (current) => current.metrics.read === 2,
    );
    expect(finalResults.failed_by_code).toEqual({ '131026': 1 });
    const test = await client.POST('/api/v1/campaigns/{id}/test', {
      params: { path: { id: campaign.id } },
      body: { phones: ['+1 415 555 0121', '+1 415 555 0199'] },
    });
    expect(test.response.status).toBe(202);
    const messages = ok(test).data.messages;
    expect(messages.map((m) => m.recipient)).toEqual(['14155550121', '14155550199']);
    // The audience's number gets its own message; the other, the first recipient's with its macros filled for it (no name: the number).
    const expected = ['Hi Ada, your order A-17 has shipped.', 'Hi 14155550199, your order A-17 has shipped.'];
    for (const [i, { message_id }] of messages.entries()) {
      const sent = await eventually(
        async () => ok(await client.GET('/api/v1/messages/{id}', { params: { path: { id: message_id } } })).data,
        (m) => m.status === 'read',
      );
      expect(sent).toMatchObject({ content: expected[i], campaign_id: null, test_of_campaign: campaign.id });
    }
    expect(ok(await client.GET('/api/v1/campaigns/{id}/results', { params: { path: { id: campaign.id } } })).data).toEqual(finalResults);
  });

  it('a segment launch: tagged contacts with a custom field, less an excluded tag', async () => {
    const imported = ok(
      await client.POST('/api/v1/contacts/bulk', {
        body: {
          contacts: [
            { phone: '+14155550141', name: 'Ana', tags: ['VIP'], custom_fields: { city: 'Lisbon' } },
            { phone: '+14155550142', name: 'Rui', tags: ['vip', 'churned'], custom_fields: { city: 'Lisbon' } },
            { phone: '+14155550143', name: 'Ivo', tags: ['vip'], custom_fields: { city: 'Porto' } },
          ],
        },
      }),
    ).data;
    expect(imported.processed_count).toBe(3);
    const campaign = ok(await client.POST('/api/v1/campaigns', { body: { name: 'Lisbon VIPs', template_name: 'welcome' } })).data;
    const launch = await client.POST('/api/v1/campaigns/{id}/launch', {
      params: { path: { id: campaign.id } },
      body: { segment: { tags_any: ['vip'], exclude_tags: ['churned'], custom_fields: { city: 'Lisbon' } }, template_variables: ['{{name}}'] },
    });
    expect(launch.response.status).toBe(202);
    expect(ok(launch).data).toMatchObject({ status: 'running', total_recipients: 1, excluded_opted_out: 0 });
    await eventually(
      async () => ok(await client.GET('/api/v1/campaigns/{id}/results', { params: { path: { id: campaign.id } } })).data,
      (current) => current.status === 'completed',
      30_000,
    );
    const messages = ok(await client.GET('/api/v1/messages', { params: { query: { campaign_id: campaign.id } } })).data;
    expect(messages.map((m) => m.phone_number)).toEqual(['14155550141']);
    expect(ok(await client.GET('/api/v1/messages/{id}', { params: { path: { id: messages[0].id } } })).data.content).toBe('Welcome to our service, Ana!');
  });

  it('a send window closed now: the campaign runs paused until the window next opens', async () => {
    // The README's window is weekdays 09:00–18:00 in Lisbon; here a day three days ahead, so it is closed whenever the test runs.
    const lisbonDay = (ms: number) =>
      new Intl.DateTimeFormat('en-US', { timeZone: 'Europe/Lisbon', weekday: 'short' }).format(ms).toLowerCase() as SendWindow['days'][number];
    const window: SendWindow = { start: '09:00', end: '18:00', days: [lisbonDay(Date.now() + 3 * 86_400_000)], time_zone: 'Europe/Lisbon' };
    const campaign = ok(await client.POST('/api/v1/campaigns', { body: { name: 'Office hours', template_name: 'welcome', send_window: window } })).data;
    expect(campaign.send_window).toEqual(window);
    const launch = await client.POST('/api/v1/campaigns/{id}/launch', {
      params: { path: { id: campaign.id } },
      body: { recipients: [{ phone: '+1 415 555 0151', name: 'Lu' }], template_variables: ['{{name}}'] },
    });
    expect(launch.response.status).toBe(202);
    const results = ok(await client.GET('/api/v1/campaigns/{id}/results', { params: { path: { id: campaign.id } } })).data;
    expect(results).toMatchObject({ status: 'running', paused_until: new Date(nextOpening(window, 'Europe/Lisbon', Date.now())!).toISOString() });
    expect(await simulator.sends('14155550151')).toEqual([]);
    expect(ok(await client.POST('/api/v1/campaigns/{id}/cancel', { params: { path: { id: campaign.id } } })).data.status).toBe('cancelled');
  });

  it('a retry of the recipients a 131049 failed: re-sent once, each recipient counted once', async () => {
    const campaign = ok(await client.POST('/api/v1/campaigns', { body: { name: 'Weekly offer', template_name: 'welcome' } })).data;
    await client.POST('/api/v1/campaigns/{id}/launch', {
      params: { path: { id: campaign.id } },
      body: {
        recipients: [
          { phone: '+1 415 555 0161', name: 'Mo' },
          { phone: '+1 415 555 9997', name: 'Busy' },
        ],
        template_variables: ['{{name}}'],
      },
    });
    const resultsOf = async () => ok(await client.GET('/api/v1/campaigns/{id}/results', { params: { path: { id: campaign.id } } })).data;
    // A failure is reported after `sent`, so it may come after the completion: wait for it.
    expect(await eventually(resultsOf, (r) => r.status === 'completed' && r.metrics.failed === 1, 30_000)).toMatchObject({ failed_by_code: { '131049': 1 } });
    const retry = await client.POST('/api/v1/campaigns/{id}/retry', {
      params: { path: { id: campaign.id }, header: { 'Idempotency-Key': `retry-${campaign.id}` } },
    });
    expect(retry.response.status).toBe(202);
    expect(ok(retry).data).toEqual({ campaign_id: campaign.id, status: 'running', retried_count: 1, skipped_count: 0 });
    // The simulator fails …9997 every time: the retry fails again, and the recipient is still counted once.
    const again = await eventually(resultsOf, (r) => r.status === 'completed' && r.metrics.failed === 1, 30_000);
    expect(again).toMatchObject({ metrics: { total_messages: 2, failed: 1 }, failed_by_code: { '131049': 1 } });
    const messages = ok(await client.GET('/api/v1/messages', { params: { query: { campaign_id: campaign.id } } })).data;
    expect(messages).toHaveLength(3);
    const [latest] = messages.filter((m) => m.phone_number === '14155559997');
    expect(ok(await client.GET('/api/v1/messages/{id}', { params: { path: { id: latest.id } } })).data.retry_of).toBe(
      messages.find((m) => m.phone_number === '14155559997' && m.id !== latest.id)!.id,
    );
    expect(await simulator.sends('14155559997')).toHaveLength(2);
    expect(await simulator.sends('14155550161')).toHaveLength(1);
  });

  it('a scheduled campaign, cancelled before it starts', async () => {
    const scheduledAt = new Date(Date.now() + 3600e3).toISOString();
    const later = ok(await client.POST('/api/v1/campaigns', { body: { name: 'Tomorrow', template_name: 'welcome', scheduled_at: scheduledAt } })).data;
    expect(later.scheduled_at).toBe(scheduledAt);
    const launched = ok(
      await client.POST('/api/v1/campaigns/{id}/launch', {
        params: { path: { id: later.id } },
        body: { recipients: [{ phone: '+14155550113', name: 'Lin' }], template_variables: ['{{name}}'] },
      }),
    ).data;
    expect(launched.status).toBe('scheduled');
    expect(ok(await client.POST('/api/v1/campaigns/{id}/cancel', { params: { path: { id: later.id } } })).data.status).toBe('cancelled');
  });

  it('webhooks: subscribed, pinged with a verifiable signature, logged, retried, rotated, narrowed, deleted', async () => {
    const receiver = await startReceiver();
    try {
      const hook = ok(await client.POST('/api/v1/webhooks', { body: { url: receiver.url, events: ['*'] } })).data;
      const path = { params: { path: { id: hook.id } } };
      const ping = ok(await client.POST('/api/v1/webhooks/{id}/test', path)).data;
      expect(ping).toMatchObject({ success: true, status_code: 200 });
      // Events of the earlier steps may reach the new subscription too: the ping is the one of type ping.
      const pinged = receiver.received.find((request) => JSON.parse(request.body).type === 'ping')!;
      expect(verifyWebhook(hook.signing_secret, pinged.headers, pinged.body)).toMatchObject({ type: 'ping', data: { webhook_id: hook.id } });

      ok(await client.POST('/api/v1/contacts', { body: { phone_number: '+14155550120', name: 'Hook' } }));
      const deliveries = await eventually(
        async () => ok(await client.GET('/api/v1/webhooks/{id}/deliveries', { params: { path: { id: hook.id }, query: { pageSize: 5 } } })).data,
        (log) => log.some((delivery) => delivery.event_type === 'contact.created' && delivery.status === 'succeeded'),
      );
      const retried = ok(
        await client.POST('/api/v1/webhooks/{id}/deliveries/{delivery_id}/retry', { params: { path: { id: hook.id, delivery_id: deliveries[0].id } } }),
      ).data;
      expect(retried).toMatchObject({ id: deliveries[0].id, status: 'pending' });

      const rotated = ok(await client.POST('/api/v1/webhooks/{id}/rotate-secret', path)).data;
      expect(rotated.signing_secret).not.toBe(hook.signing_secret);
      const narrowed = ok(await client.PATCH('/api/v1/webhooks/{id}', { ...path, body: { events: ['message.failed', 'campaign.completed'] } })).data;
      expect(narrowed.events).toEqual(['message.failed', 'campaign.completed']);
      expect(ok(await client.DELETE('/api/v1/webhooks/{id}', path)).data).toEqual({ id: hook.id, deleted: true });
      expect((await client.GET('/api/v1/webhooks/{id}', path)).error?.error.code).toBe('not_found');
    } finally {
      await receiver.stop();
    }
  });

  it('usage of the last 7 days counts these calls', async () => {
    const usage = ok(await client.GET('/api/v1/usage', { params: { query: { days: 7 } } })).data;
    expect(usage.period_days).toBe(7);
    expect(usage.overview.total_requests).toBeGreaterThan(20);
    expect(usage.overview.failed_requests).toBeGreaterThan(0);
  });
});
