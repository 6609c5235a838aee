import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { useTestApi, type TestWorkspace } from '../support/api';
import { startReceiver } from '../support/receiver';
import { eventually } from '../support/wait';

const api = useTestApi({ runtime: true, statusIntervalMs: 20 });
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver?.stop());
beforeEach(() => {
  receiver.received.length = 0;
  receiver.respond(() => 200);
});

async function subscribe(ws: TestWorkspace, events: string[] = ['*']) {
  const reply = await api.call('POST', '/api/v1/webhooks', { key: ws.key, body: { url: receiver.url, events } });
  expect(reply.status).toBe(201);
  return reply.body.data as { id: string; signing_secret: string };
}
const bodies = () => receiver.received.map((r) => JSON.parse(r.body) as { id: string; type: string; workspace_id: string; data: Record<string, unknown> });
const types = () => bodies().map((b) => b.type);

describe('outbound webhooks', () => {
  it('creates a subscription with a whsec_ secret shown once, and pings it with a verifiable signature', async () => {
    const ws = await api.workspace();
    const sub = await subscribe(ws);
    expect(sub.signing_secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const got = await api.call('GET', `/api/v1/webhooks/${sub.id}`, { key: ws.key });
    expect(got.body.data).toEqual({
      id: sub.id,
      url: receiver.url,
      events: ['*'],
      is_active: true,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(JSON.stringify((await api.call('GET', '/api/v1/webhooks', { key: ws.key })).body)).not.toContain('whsec_');

    const test = await api.call('POST', `/api/v1/webhooks/${sub.id}/test`, { key: ws.key });
    expect(test.body.data).toEqual({ delivery_id: expect.any(String), success: true, status_code: 200, duration_ms: expect.any(Number) });
    const [ping] = receiver.received;
    const verified = new Webhook(sub.signing_secret).verify(ping.body, ping.headers as Record<string, string>) as {
      type: string;
      data: unknown;
      workspace_id: string;
    };
    expect(verified).toMatchObject({ type: 'ping', data: { webhook_id: sub.id }, workspace_id: ws.id });
    expect(ping.headers['webhook-id']).toBe(JSON.parse(ping.body).id);
  });

  it('delivers contact and message events of its own workspace only, each verifiable', async () => {
    const ws = await api.workspace();
    const other = await api.workspace();
    await api.call('POST', '/api/v1/templates/sync', { key: ws.key });
    const sub = await subscribe(ws);
    await subscribe(other, ['contact.created']);

    const contact = (await api.call('POST', '/api/v1/contacts', { key: ws.key, body: { phone_number: '+14155551701', name: 'Hook' } })).body.data;
    await api.call('PATCH', `/api/v1/contacts/${contact.id}`, { key: ws.key, body: { name: 'Hooked' } });
    await api.call('DELETE', `/api/v1/contacts/${contact.id}`, { key: ws.key });
    const sent = await api.call('POST', '/api/v1/messages', { key: ws.key, body: { to: '+14155551702', template: 'hello_world' } });

    await eventually(
      async () => types(),
      (t) => ['contact.created', 'contact.updated', 'contact.deleted', 'message.sent', 'message.delivered', 'message.read'].every((x) => t.includes(x)),
      20_000,
    );
    for (const r of receiver.received) expect(() => new Webhook(sub.signing_secret).verify(r.body, r.headers as Record<string, string>)).not.toThrow();
    expect(bodies().every((b) => b.workspace_id === ws.id)).toBe(true);
    const created = bodies().find((b) => b.type === 'contact.created')!;
    expect(created.data).toMatchObject({ id: contact.id, phone_number: '14155551701', name: 'Hook' });
    expect(bodies().find((b) => b.type === 'contact.deleted')!.data).toEqual({ id: contact.id, phone_number: '14155551701' });
    expect(bodies().find((b) => b.type === 'message.read')!.data).toMatchObject({
      id: sent.body.data.message_id,
      status: 'read',
      content: 'Hello from our team.',
    });
  });

  it('retries a failed delivery after about 5 s with the same webhook-id; the log shows both attempts', async () => {
    const ws = await api.workspace();
    const sub = await subscribe(ws, ['contact.created']);
    receiver.respond((n) => (n === 1 ? 500 : 200));
    await api.call('POST', '/api/v1/contacts', { key: ws.key, body: { phone_number: '+14155551703' } });
    await eventually(
      async () => receiver.received.length,
      (n) => n >= 2,
      20_000,
    );
    const [first, second] = receiver.received;
    expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(second.at - first.at).toBeGreaterThanOrEqual(4500);
    const log = await eventually(
      () => api.call('GET', `/api/v1/webhooks/${sub.id}/deliveries`, { key: ws.key }),
      (r) => r.body.data[0]?.status === 'succeeded',
    );
    expect(log.body.data[0]).toMatchObject({ event_type: 'contact.created', status: 'succeeded', attempts: 2, last_status_code: 200 });
    expect(log.body.pagination.totalCount).toBe(1);
  }, 30_000);

  it('deactivates an endpoint that answers 410', async () => {
    const ws = await api.workspace();
    const sub = await subscribe(ws, ['contact.created']);
    receiver.respond(() => 410);
    await api.call('POST', '/api/v1/contacts', { key: ws.key, body: { phone_number: '+14155551704' } });
    await eventually(
      () => api.call('GET', `/api/v1/webhooks/${sub.id}`, { key: ws.key }),
      (r) => r.body.data.is_active === false,
    );
    await api.call('POST', '/api/v1/contacts', { key: ws.key, body: { phone_number: '+14155551705' } });
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(receiver.received).toHaveLength(1);
  });

  it('rotates the secret: both the new and the old secret verify for the next 24 hours', async () => {
    const ws = await api.workspace();
    const sub = await subscribe(ws);
    const rotated = await api.call('POST', `/api/v1/webhooks/${sub.id}/rotate-secret`, { key: ws.key });
    expect(rotated.body.data.signing_secret).not.toBe(sub.signing_secret);
    await api.call('POST', `/api/v1/webhooks/${sub.id}/test`, { key: ws.key });
    const [ping] = receiver.received;
    expect(String(ping.headers['webhook-signature']).split(' ')).toHaveLength(2);
    for (const secret of [sub.signing_secret, rotated.body.data.signing_secret]) {
      expect(() => new Webhook(secret).verify(ping.body, ping.headers as Record<string, string>)).not.toThrow();
    }
  });

  it('keeps subscriptions to their workspace and refuses unsafe or unknown input', async () => {
    const ws = await api.workspace();
    const other = await api.workspace();
    const sub = await subscribe(ws);
    expect((await api.call('PATCH', `/api/v1/webhooks/${sub.id}`, { key: other.key, body: { is_active: false } })).status).toBe(404);
    expect((await api.call('DELETE', `/api/v1/webhooks/${sub.id}`, { key: other.key })).status).toBe(404);
    expect((await api.call('GET', `/api/v1/webhooks/${sub.id}/deliveries`, { key: other.key })).status).toBe(404);
    for (const [body, field] of [
      [{ url: 'ftp://example.com/x', events: ['*'] }, 'url'],
      [{ url: 'http://169.254.169.254/latest', events: ['*'] }, 'url'],
      [{ url: 'http://10.0.0.1/x', events: ['*'] }, 'url'],
      [{ url: 'not a url', events: ['*'] }, 'url'],
      [{ url: receiver.url, events: [] }, 'events'],
      [{ url: receiver.url, events: ['message.exploded'] }, 'events.0'],
    ] as const) {
      const reply = await api.call('POST', '/api/v1/webhooks', { key: ws.key, body });
      expect(reply.status).toBe(400);
      expect(reply.body.error.details.map((d: { field: string }) => d.field)).toEqual([field]);
    }
    expect((await api.call('DELETE', `/api/v1/webhooks/${sub.id}`, { key: ws.key })).status).toBe(200);
    expect((await api.call('GET', `/api/v1/webhooks/${sub.id}`, { key: ws.key })).status).toBe(404);
  });

  it('accepts ping as a known event type (contract §10)', async () => {
    const ws = await api.workspace();
    const reply = await api.call('POST', '/api/v1/webhooks', { key: ws.key, body: { url: receiver.url, events: ['ping', 'message.read'] } });
    expect(reply.status).toBe(201);
    expect(reply.body.data.events).toEqual(['ping', 'message.read']);
  });
});

describe('dispatch', () => {
  it('delivers at least once when the dispatcher dies between recording and queueing a delivery', async () => {
    const { ensureDelivery } = await import('#shared/domain/subscriber-webhooks/deliveries');
    const { dispatchEvent } = await import('#shared/domain/subscriber-webhooks/dispatch');
    const ws = await api.workspace();
    const sub = await subscribe(ws, ['contact.created']);
    const now = new Date().toISOString();
    const contact = {
      id: randomUUID(),
      name: 'Ada',
      phone_number: '14155550123',
      email: null,
      tags: [],
      custom_fields: {},
      opted_out_at: null,
      created_at: now,
      updated_at: now,
    };
    const event = { id: '01a20000-0000-7000-8000-0000000e0001', type: 'contact.created' as const, created_at: now, workspace_id: ws.id, data: contact };
    // The first dispatcher recorded the delivery, then crashed before queueing it; the event is retried.
    await ensureDelivery(sub.id, event);
    expect(await dispatchEvent(event)).toBe(1);
    expect(await dispatchEvent(event)).toBe(1); // a repeated event finds the same pending delivery
    await eventually(
      async () => receiver.received.length,
      (n) => n >= 1,
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([event.id]);
    const log = await api.call('GET', `/api/v1/webhooks/${sub.id}/deliveries`, { key: ws.key });
    expect(log.body.pagination.totalCount).toBe(1);
  });
});
