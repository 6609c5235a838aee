import { Webhook } from 'standardwebhooks';
import { startReceiver } from '../support/receiver';
import { useTestApi, type TestWorkspace } from '../support/api';
import { simulatorControl } from '../support/simulator';
import { eventually } from '../support/wait';

/** WhatsApp groups through the platform's Groups API (contract §23), against the simulator's. */
const api = useTestApi({ runtime: true, statusIntervalMs: 20 });
const simulator = simulatorControl(() => api.simulator.url);

let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver?.stop());

type Event = { type: string; data: Record<string, any> };
async function subscribe(ws: TestWorkspace): Promise<() => Event[]> {
  const types = [
    'chat_group.created',
    'chat_group.updated',
    'chat_group.participants_changed',
    'chat_group.join_requested',
    'chat_group.deleted',
    'message.received',
  ];
  const sub = (await api.call('POST', '/api/v1/webhooks', { key: ws.key, body: { url: receiver.url, events: types } })).body.data;
  const wh = new Webhook(sub.signing_secret);
  return () =>
    receiver.received.flatMap((r) => {
      try {
        return [wh.verify(r.body, r.headers as Record<string, string>) as Event];
      } catch {
        return [];
      }
    });
}

const group = async (ws: TestWorkspace, id: string) => (await api.call('GET', `/api/v1/chat-groups/${id}`, { key: ws.key })).body.data;
const sentTo = (platformGroupId: string) => simulator.sends(platformGroupId);

/** Creates a group and waits for the platform to report it. */
async function activeGroup(ws: TestWorkspace, body: Record<string, unknown> = { subject: 'Spring orders' }) {
  const created = await api.call('POST', '/api/v1/chat-groups', { key: ws.key, body });
  expect(created.status).toBe(202);
  expect(created.body.data.status).toBe('creating');
  return eventually(
    () => group(ws, created.body.data.id),
    (g) => g.status === 'active',
  );
}

describe('chat groups (contract §23)', () => {
  let ws: TestWorkspace;
  let events: () => Event[];
  beforeAll(async () => {
    ws = await api.workspaceWithTemplates();
    events = await subscribe(ws);
  });
  const eventsOf = (type: string, groupId: string) => events().filter((e) => e.type === type && (e.data.id === groupId || e.data.chat_group_id === groupId));

  it('a group created, joined by request, messaged both ways, a participant removed, deleted: each step an event', async () => {
    const g = await activeGroup(ws, { subject: 'Spring orders', description: 'Order questions', join_approval_mode: 'approval_required' });
    expect(g).toMatchObject({ subject: 'Spring orders', description: 'Order questions', join_approval_mode: 'approval_required', from: ws.phoneNumberId });
    expect(g.invite_link).toMatch(/^https:\/\/chat\.whatsapp\.com\//);
    expect(g.platform_group_id).toEqual(expect.any(String));
    await eventually(
      async () => eventsOf('chat_group.created', g.id),
      (e) => e.length === 1,
    );

    // A customer opens the invite link: a join request, approved by the business, and the customer joins.
    await simulator.groupJoin(g.platform_group_id, '15550001001', 'Ada');
    const requested = await eventually(
      () => group(ws, g.id),
      (x) => x.join_requests.length === 1,
    );
    await eventually(
      async () => eventsOf('chat_group.join_requested', g.id),
      (e) => e.length === 1,
    );
    const approved = await api.call('POST', `/api/v1/chat-groups/${g.id}/join-requests/${encodeURIComponent(requested.join_requests[0].id)}`, {
      key: ws.key,
      body: { approve: true },
    });
    expect(approved.status).toBe(200);
    expect(approved.body.data.join_requests).toEqual([]);
    await eventually(
      () => api.call('GET', `/api/v1/chat-groups/${g.id}/participants`, { key: ws.key }),
      (r) => r.body.data.some((p: { wa_id: string }) => p.wa_id === '15550001001'),
    );
    await simulator.groupJoin(g.platform_group_id, '15550001002', 'Grace');
    const second = await eventually(
      () => group(ws, g.id),
      (x) => x.join_requests.length === 1,
    );
    await api.call('POST', `/api/v1/chat-groups/${g.id}/join-requests/${encodeURIComponent(second.join_requests[0].id)}`, {
      key: ws.key,
      body: { approve: true },
    });
    await eventually(
      () => group(ws, g.id),
      (x) => x.participants_count === 2,
    );

    // A participant writes in the group: stored with the group and its sender, announced, and the group's window opens.
    await simulator.groupMessage(g.platform_group_id, '15550001001', 'When does my order ship?');
    const inbound = await eventually(
      () => api.call('GET', `/api/v1/messages?chat_group_id=${g.id}&direction=inbound`, { key: ws.key }),
      (r) => r.body.data.length === 1,
    );
    expect(inbound.body.data[0]).toMatchObject({ chat_group_id: g.id, phone_number: '15550001001', direction: 'inbound' });
    await eventually(
      async () => events().filter((e) => e.type === 'message.received' && e.data.chat_group_id === g.id),
      (e) => e.length === 1,
    );

    // The business answers in the group: a text (the group's window is open) and a template.
    const text = await api.call('POST', '/api/v1/messages', { key: ws.key, body: { to_group_id: g.id, text: 'Tomorrow morning.' } });
    expect(text.status).toBe(202);
    expect(text.body.data).toMatchObject({ chat_group_id: g.id, recipient: '' });
    const template = await api.call('POST', '/api/v1/messages', {
      key: ws.key,
      body: { to_group_id: g.id, template: 'order_update', variables: ['Ada', 'A-17'] },
    });
    expect(template.status).toBe(202);
    const sends = await eventually(
      () => sentTo(g.platform_group_id),
      (s) => s.length === 2,
    );
    for (const sent of sends) expect(sent.request).toMatchObject({ recipient_type: 'group', to: g.platform_group_id });
    await eventually(
      () => api.call('GET', `/api/v1/messages/${text.body.data.message_id}`, { key: ws.key }),
      (r) => r.body.data.status === 'delivered' || r.body.data.status === 'read',
    );
    const conversation = (await api.call('GET', `/api/v1/messages?chat_group_id=${g.id}`, { key: ws.key })).body;
    expect(conversation.pagination.totalCount).toBe(3);

    // The business removes a participant: gone once the platform reports it.
    const removal = await api.call('DELETE', `/api/v1/chat-groups/${g.id}/participants/15550001002`, { key: ws.key });
    expect(removal.status).toBe(202);
    await eventually(
      () => group(ws, g.id),
      (x) => x.participants_count === 1,
    );
    await eventually(
      async () => eventsOf('chat_group.participants_changed', g.id),
      (e) => e.length === 3,
    );

    // Deleted on the platform; listed as deleted, and it takes no more messages.
    const deleted = await api.call('DELETE', `/api/v1/chat-groups/${g.id}`, { key: ws.key });
    expect(deleted.status).toBe(200);
    expect(deleted.body.data.status).toBe('deleted');
    await eventually(
      async () => eventsOf('chat_group.deleted', g.id),
      (e) => e.length === 1,
    );
    const late = await api.call('POST', '/api/v1/messages', { key: ws.key, body: { to_group_id: g.id, text: 'Anyone?' } });
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe('invalid_state');
  });

  it('refuses a message to a group still being created, with nothing sent', async () => {
    await simulator.holdGroupCreation(true);
    try {
      const created = await api.call('POST', '/api/v1/chat-groups', { key: ws.key, body: { subject: 'Held' } });
      expect(created.status).toBe(202);
      const reply = await api.call('POST', '/api/v1/messages', { key: ws.key, body: { to_group_id: created.body.data.id, template: 'hello_world' } });
      expect(reply.status).toBe(409);
      expect(reply.body.error.code).toBe('invalid_state');
      expect((await group(ws, created.body.data.id)).status).toBe('creating');
    } finally {
      await simulator.holdGroupCreation(false);
    }
  });

  it('refuses a kind groups do not take, an authentication template, and a session message outside the group window', async () => {
    const g = await activeGroup(ws);
    const location = await api.call('POST', '/api/v1/messages', {
      key: ws.key,
      body: { to_group_id: g.id, location: { latitude: 52.3676, longitude: 4.9041, name: 'Depot' } },
    });
    expect(location.status).toBe(422);
    expect(location.body.error.code).toBe('unsupported_for_groups');
    const auth = await api.call('POST', '/api/v1/messages', { key: ws.key, body: { to_group_id: g.id, template: 'login_code', variables: ['123456'] } });
    expect(auth.status).toBe(422);
    expect(auth.body.error.code).toBe('unsupported_for_groups');
    const text = await api.call('POST', '/api/v1/messages', { key: ws.key, body: { to_group_id: g.id, text: 'Hello' } });
    expect(text.status).toBe(422);
    expect(text.body.error.code).toBe('session_window_closed');
    expect(await sentTo(g.platform_group_id)).toEqual([]);
  });

  it('refuses to approve a ninth participant before asking the platform (its limit of 8)', async () => {
    const g = await activeGroup(ws, { subject: 'Full house', join_approval_mode: 'approval_required' });
    const approveNext = async (waId: string) => {
      await simulator.groupJoin(g.platform_group_id, waId);
      const waiting = await eventually(
        () => group(ws, g.id),
        (x) => x.join_requests.length === 1,
      );
      return api.call('POST', `/api/v1/chat-groups/${g.id}/join-requests/${encodeURIComponent(waiting.join_requests[0].id)}`, {
        key: ws.key,
        body: { approve: true },
      });
    };
    for (let n = 1; n <= 8; n++) {
      expect((await approveNext(`1415557${String(n).padStart(4, '0')}`)).status).toBe(200);
      await eventually(
        () => group(ws, g.id),
        (x) => x.participants_count === n,
      );
    }
    const ninth = await approveNext('14155570009');
    expect(ninth.status).toBe(422);
    expect(ninth.body.error.code).toBe('platform_error');
    expect((await group(ws, g.id)).participants_count).toBe(8);
  });

  it('answers 404 for a participant not in the group, with nothing sent to the platform', async () => {
    const g = await activeGroup(ws);
    const reply = await api.call('DELETE', `/api/v1/chat-groups/${g.id}/participants/15550009999`, { key: ws.key });
    expect(reply.status).toBe(404);
  });

  it("another workspace cannot see, message or change a workspace's group", async () => {
    const g = await activeGroup(ws);
    const other = await api.workspaceWithTemplates();
    expect((await api.call('GET', `/api/v1/chat-groups/${g.id}`, { key: other.key })).status).toBe(404);
    expect((await api.call('DELETE', `/api/v1/chat-groups/${g.id}`, { key: other.key })).status).toBe(404);
    expect((await api.call('POST', `/api/v1/chat-groups/${g.id}/invite-link`, { key: other.key })).status).toBe(404);
    const send = await api.call('POST', '/api/v1/messages', { key: other.key, body: { to_group_id: g.id, template: 'hello_world' } });
    expect(send.status).toBe(404);
    expect((await api.call('GET', '/api/v1/chat-groups', { key: other.key })).body.data).toEqual([]);
  });

  it('resets the invite link: a new one, and the old one no longer joins', async () => {
    const g = await activeGroup(ws);
    const reset = await api.call('POST', `/api/v1/chat-groups/${g.id}/invite-link`, { key: ws.key });
    expect(reset.status).toBe(200);
    expect(reset.body.data.invite_link).toMatch(/^https:\/\/chat\.whatsapp\.com\//);
    expect(reset.body.data.invite_link).not.toBe(g.invite_link);
    await eventually(
      async () => eventsOf('chat_group.updated', g.id),
      (e) => e.some((event: Event) => event.data.invite_link === reset.body.data.invite_link),
    );
  });
});
