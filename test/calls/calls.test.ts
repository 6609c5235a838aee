import { Webhook } from 'standardwebhooks';
import { startReceiver } from '../support/receiver';
import { useTestApi, type TestWorkspace } from '../support/api';
import { simulatorControl } from '../support/simulator';
import { eventually } from '../support/wait';

/** Calls through the platform's Calling API (contract §23), against the simulator's. */
const api = useTestApi({ runtime: true, statusIntervalMs: 20 });
const simulator = simulatorControl(() => api.simulator.url);

let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver?.stop());

const OFFER = 'v=0\r\no=- 7602563789789945080 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\na=group:BUNDLE audio\r\nm=audio 40012 UDP/TLS/RTP/SAVPF 111\r\n';
const ANSWER = 'v=0\r\no=- 4611731400430051336 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\na=setup:active\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\n';

type Event = { type: string; data: Record<string, any> };
async function subscribe(ws: TestWorkspace): Promise<() => Event[]> {
  const types = ['call.ringing', 'call.accepted', 'call.ended', 'call.permission_changed'];
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

const calls = async (ws: TestWorkspace) => (await api.call('GET', '/api/v1/calls', { key: ws.key })).body.data as Record<string, any>[];
const callOf = async (ws: TestWorkspace, id: string) => (await api.call('GET', `/api/v1/calls/${id}`, { key: ws.key })).body.data;

/** A customer calls the workspace's number; answers our call once it is in the log. */
async function customerCalls(ws: TestWorkspace, from: string) {
  const { call_id } = await simulator.incomingCall(ws.phoneNumberId, from, OFFER);
  const log = await eventually(
    () => calls(ws),
    (l) => l.some((c) => c.platform_call_id === call_id),
  );
  return log.find((c) => c.platform_call_id === call_id)!;
}

describe('calls (contract §23)', () => {
  let ws: TestWorkspace;
  let events: () => Event[];
  beforeAll(async () => {
    ws = await api.workspaceWithTemplates();
    events = await subscribe(ws);
    // Calling is off on a new number, as on the platform; the number's settings turn it on.
    const enabled = await api.call('PATCH', `/api/v1/numbers/${ws.phoneNumberId}/calling`, {
      key: ws.key,
      body: { enabled: true, callback_permission: false },
    });
    expect(enabled.status).toBe(200);
    expect(enabled.body.data).toMatchObject({ number_id: ws.phoneNumberId, enabled: true, callback_permission: false });
    expect((await api.call('GET', `/api/v1/numbers/${ws.phoneNumberId}/calling`, { key: ws.key })).body.data.enabled).toBe(true);
  });
  const eventsOf = (type: string, id: string) => events().filter((e) => e.type === type && e.data.id === id);

  it("a customer's call rings with their SDP offer, is accepted with the business's SDP answer and ends with its duration, at no cost", async () => {
    const call = await customerCalls(ws, '14155562001');
    expect(call).toMatchObject({ direction: 'inbound', status: 'ringing', phone_number: '14155562001', sdp_offer: OFFER, from: ws.phoneNumberId });
    const ringing = await eventually(
      async () => eventsOf('call.ringing', call.id),
      (e) => e.length === 1,
    );
    expect(ringing[0].data.sdp_offer).toBe(OFFER);

    const preAccepted = await api.call('POST', `/api/v1/calls/${call.id}/pre-accept`, { key: ws.key, body: { sdp: ANSWER } });
    expect(preAccepted.status).toBe(200);
    const accepted = await api.call('POST', `/api/v1/calls/${call.id}/accept`, { key: ws.key, body: { sdp: ANSWER } });
    expect(accepted.status).toBe(200);
    expect(accepted.body.data).toMatchObject({ status: 'accepted', sdp_answer: ANSWER });
    const sent = (await simulator.calls()).filter((c: { call_id?: string }) => c.call_id === call.platform_call_id);
    expect(sent.map((c: { action: string }) => c.action)).toEqual(['pre_accept', 'accept']);
    for (const action of sent) expect(action.session.sdp).toBe(ANSWER);
    await eventually(
      async () => eventsOf('call.accepted', call.id),
      (e) => e.length === 1,
    );

    await simulator.hangUp(call.platform_call_id, 47);
    const over = await eventually(
      () => callOf(ws, call.id),
      (c) => c.status === 'ended' && c.duration_s !== null,
    );
    expect(over).toMatchObject({ duration_s: 47, cost: { amount: '0.0000' } });
    await eventually(
      async () => eventsOf('call.ended', call.id),
      (e) => e.length === 1,
    );

    // Accepting a call that is over is refused, with nothing sent.
    const late = await api.call('POST', `/api/v1/calls/${call.id}/accept`, { key: ws.key, body: { sdp: ANSWER } });
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe('invalid_state');
    expect((await simulator.calls()).filter((c: { call_id?: string }) => c.call_id === call.platform_call_id)).toHaveLength(2);
  });

  it("a customer who hangs up before an answer: the call is missed, and a late accept is 409 with nothing sent; the call opened the customer's window", async () => {
    const call = await customerCalls(ws, '14155562002');
    await simulator.hangUp(call.platform_call_id);
    await eventually(
      () => callOf(ws, call.id),
      (c) => c.status === 'missed',
    );
    const late = await api.call('POST', `/api/v1/calls/${call.id}/accept`, { key: ws.key, body: { sdp: ANSWER } });
    expect(late.status).toBe(409);
    const text = await api.call('POST', '/api/v1/messages', { key: ws.key, body: { to: '+14155562002', text: 'Sorry we missed your call' } });
    expect(text.status).toBe(202);
  });

  it("a business call is refused without the customer's permission and placed once they grant it", async () => {
    const customer = '14155562003';
    const refused = await api.call('POST', '/api/v1/calls', { key: ws.key, body: { to: `+${customer}`, sdp: OFFER } });
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe('call_permission_required');
    expect((await simulator.calls()).filter((c: { to?: string }) => c.to === customer)).toEqual([]);

    await simulator.inbound({ phone_number_id: ws.phoneNumberId, from: customer, text: 'Call me please' });
    await eventually(
      () => api.call('GET', `/api/v1/messages?direction=inbound&phone=${customer}`, { key: ws.key }),
      (r) => r.body.data.length === 1,
    );
    const asked = await api.call('POST', '/api/v1/calls/permission-requests', { key: ws.key, body: { to: `+${customer}`, body: 'May we call you?' } });
    expect(asked.status).toBe(202);
    const request = await eventually(
      () => simulator.sends(customer),
      (s) => s.length === 1,
    );
    expect(request[0].request).toMatchObject({
      type: 'interactive',
      interactive: { type: 'call_permission_request', action: { name: 'call_permission_request' } },
    });

    await simulator.permissionReply(ws.phoneNumberId, customer, true);
    const changed = await eventually(
      async () => events().filter((e) => e.type === 'call.permission_changed' && e.data.customer === customer),
      (e) => e.length === 1,
    );
    expect(changed[0].data).toMatchObject({ status: 'granted', from: ws.phoneNumberId });

    const placed = await api.call('POST', '/api/v1/calls', { key: ws.key, body: { to: `+${customer}`, sdp: OFFER } });
    expect(placed.status).toBe(201);
    expect(placed.body.data).toMatchObject({ direction: 'outbound', status: 'ringing', sdp_offer: OFFER });
    await simulator.answerCall(placed.body.data.platform_call_id, true);
    const connected = await eventually(
      () => callOf(ws, placed.body.data.id),
      (c) => c.status === 'accepted' && c.sdp_answer !== null,
    );
    expect(connected.sdp_answer).toEqual(expect.any(String));
    const ended = await api.call('POST', `/api/v1/calls/${placed.body.data.id}/terminate`, { key: ws.key });
    expect(ended.status).toBe(200);
    await eventually(
      () => callOf(ws, placed.body.data.id),
      (c) => c.status === 'ended' && c.duration_s !== null,
    );
  });

  it('refuses an SDP that is not a string or too long, before anything is sent', async () => {
    const call = await customerCalls(ws, '14155562004');
    const notString = await api.call('POST', `/api/v1/calls/${call.id}/accept`, { key: ws.key, body: { sdp: { type: 'answer' } } });
    expect(notString.status).toBe(400);
    expect(notString.body.error.code).toBe('validation_error');
    const tooLong = await api.call('POST', `/api/v1/calls/${call.id}/accept`, { key: ws.key, body: { sdp: 'a'.repeat(65_537) } });
    expect(tooLong.status).toBe(400);
    expect((await simulator.calls()).filter((c: { call_id?: string }) => c.call_id === call.platform_call_id)).toEqual([]);
    expect((await callOf(ws, call.id)).status).toBe('ringing');
  });

  it("reads and changes a number's calling settings in the contract's words, as the platform keeps them", async () => {
    const changed = await api.call('PATCH', `/api/v1/numbers/${ws.phoneNumberId}/calling`, {
      key: ws.key,
      body: {
        icon_visibility: 'DISABLE_ALL',
        hours: { status: 'DISABLED', timezone_id: 'UTC', weekly_operating_hours: [{ day_of_week: 'MONDAY', open_time: '0800', close_time: '1700' }] },
      },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ enabled: true, icon_visibility: 'DISABLE_ALL', hours: { status: 'DISABLED' } });
    expect(await simulator.callingSettings(ws.phoneNumberId)).toMatchObject({ call_icon_visibility: 'DISABLE_ALL', call_hours: { status: 'DISABLED' } });
    await api.call('PATCH', `/api/v1/numbers/${ws.phoneNumberId}/calling`, { key: ws.key, body: { icon_visibility: 'DEFAULT' } });
    const other = await api.workspace();
    expect((await api.call('GET', `/api/v1/numbers/${ws.phoneNumberId}/calling`, { key: other.key })).status).toBe(404);
  });

  it("another workspace cannot see or answer a workspace's call", async () => {
    const call = await customerCalls(ws, '14155562005');
    const other = await api.workspace();
    expect((await api.call('GET', `/api/v1/calls/${call.id}`, { key: other.key })).status).toBe(404);
    expect((await api.call('POST', `/api/v1/calls/${call.id}/reject`, { key: other.key })).status).toBe(404);
    expect((await api.call('GET', '/api/v1/calls', { key: other.key })).body.data).toEqual([]);
  });
});
