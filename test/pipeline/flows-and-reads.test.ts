import { Webhook } from 'standardwebhooks';
import { startReceiver } from '../support/receiver';
import { useTestApi, type TestWorkspace } from '../support/api';
import { customerMessage, postPlatformWebhook } from '../support/platform-webhook';
import { simulatorControl } from '../support/simulator';
import { eventually } from '../support/wait';

const api = useTestApi({ runtime: true, statusIntervalMs: 20 });
const simulator = simulatorControl(() => api.simulator.url);

let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver?.stop());

type Event = { type: string; data: Record<string, any> };
/** Subscribes `receiver` to the workspace's events of these types; answers the verified events received so far. */
async function subscribe(ws: TestWorkspace, types: string[]): Promise<() => Event[]> {
  const sub = (await api.call('POST', '/api/v1/webhooks', { key: ws.key, body: { url: receiver.url, events: types } })).body.data;
  const wh = new Webhook(sub.signing_secret);
  return () =>
    receiver.received.flatMap((r) => {
      try {
        return [wh.verify(r.body, r.headers as Record<string, string>) as Event];
      } catch {
        return []; // another workspace's subscription
      }
    });
}

const send = (ws: TestWorkspace, body: Record<string, unknown>) => api.call('POST', '/api/v1/messages', { key: ws.key, body });
const message = async (ws: TestWorkspace, id: string) => (await api.call('GET', `/api/v1/messages/${id}`, { key: ws.key })).body.data;
const inboundList = async (ws: TestWorkspace, phone: string) =>
  (await api.call('GET', `/api/v1/messages?direction=inbound&phone=${phone}`, { key: ws.key })).body.data as { id: string }[];

/** A customer message arrives through the simulator (`write` posts it); answers our id of it and its wamid. */
async function arrives(ws: TestWorkspace, from: string, write: () => Promise<{ wamid: string }>) {
  const known = new Set((await inboundList(ws, from)).map((m) => m.id));
  const { wamid } = await write();
  const list = await eventually(
    () => inboundList(ws, from),
    (l) => l.some((m) => !known.has(m.id)),
    20_000,
  );
  return { id: list.find((m) => !known.has(m.id))!.id, wamid };
}
const customerWrites = (ws: TestWorkspace, from: string) => arrives(ws, from, () => simulator.inbound({ phone_number_id: ws.phoneNumberId, from, text: 'hi' }));

const FLOW = {
  type: 'flow',
  header: 'Book a visit',
  body: 'Pick a day and we will confirm.',
  footer: 'Takes a minute',
  flow_id: '1197715005513101',
  flow_cta: 'Book now',
  flow_token: 'booking-7731',
  flow_action: 'navigate',
  screen: 'BOOKING',
  data: { days: ['mon', 'tue'], customer: { name: 'Ada' } },
  flow_message_version: '3',
  mode: 'draft',
};

/** Sends FLOW to a customer who wrote first; answers our message once the platform took it. */
async function flowSent(ws: TestWorkspace, customer: string) {
  await customerWrites(ws, customer);
  const reply = await send(ws, { to: `+${customer}`, interactive: FLOW });
  expect(reply.status).toBe(202);
  return eventually(
    () => message(ws, reply.body.data.message_id),
    (m) => m.provider_message_id !== null,
  );
}

describe('flows (contract §21)', () => {
  let ws: TestWorkspace;
  beforeAll(async () => {
    ws = await api.workspaceWithTemplates();
  });

  it('sends a flow with every field the platform documents, and its answers come back parsed in the message and in message.received', async () => {
    const events = await subscribe(ws, ['message.received']);
    const customer = '14155563100';
    const flow = await flowSent(ws, customer);
    expect(flow).toMatchObject({ message_type: 'interactive', content: FLOW.body, interactive: FLOW });
    const [request] = await simulator.sends(customer);
    expect(request.request.interactive).toEqual({
      type: 'flow',
      header: { type: 'text', text: 'Book a visit' },
      body: { text: 'Pick a day and we will confirm.' },
      footer: { text: 'Takes a minute' },
      action: {
        name: 'flow',
        parameters: {
          flow_message_version: '3',
          flow_id: '1197715005513101',
          flow_cta: 'Book now',
          flow_token: 'booking-7731',
          mode: 'draft',
          flow_action: 'navigate',
          flow_action_payload: { screen: 'BOOKING', data: { days: ['mon', 'tue'], customer: { name: 'Ada' } } },
        },
      },
    });

    const answer = await arrives(ws, customer, () =>
      simulator.flowReply({ phone_number_id: ws.phoneNumberId, from: customer, context: flow.provider_message_id, response: { day: 'tue', seats: 2 } }),
    );
    const expected = {
      message_type: 'interactive',
      content: 'Sent',
      interactive: { type: 'nfm_reply', id: null, title: 'Sent', description: null },
      flow_response: { flow_token: 'booking-7731', day: 'tue', seats: 2 },
      context: { message_id: flow.id, provider_message_id: flow.provider_message_id },
    };
    expect(await message(ws, answer.id)).toMatchObject(expected);
    const received = await eventually(
      async () => events().filter((e) => e.type === 'message.received' && e.data.id === answer.id),
      (e) => e.length === 1,
    );
    expect(received[0].data).toMatchObject({ ...expected, contact_id: expect.any(String) });
  });

  it.each([
    ['not JSON', '{"flow_token": "booking-7731", "day": '],
    // 1 MB (10^6 bytes): the most the simulator's control takes in one request.
    ['1 MB of JSON', JSON.stringify({ flow_token: 'booking-7731', notes: 'x'.repeat(1_000_000) })],
    ['JSON nesting 100 levels', `${'{"a":'.repeat(100)}1${'}'.repeat(100)}`],
  ])('stores an nfm_reply whose response_json is %s with flow_response null', async (_name, responseJson) => {
    const customer = `1415556${3200 + (responseJson.length % 97)}`;
    const flow = await flowSent(ws, customer);
    const answer = await arrives(ws, customer, () =>
      simulator.flowReply({ phone_number_id: ws.phoneNumberId, from: customer, context: flow.provider_message_id, response_json: responseJson }),
    );
    expect(await message(ws, answer.id)).toMatchObject({
      message_type: 'interactive',
      content: 'Sent',
      interactive: { type: 'nfm_reply' },
      flow_response: null,
    });
  });

  it.each([
    ['without flow_token', { flow_token: undefined }, 'interactive.flow_token'],
    ['with data over 64 KB', { data: { notes: 'x'.repeat(64 * 1024) } }, 'interactive.data'],
    ['with data nesting 20 levels', { data: JSON.parse(`${'{"a":'.repeat(20)}1${'}'.repeat(20)}`) }, 'interactive.data'],
    ['with both flow_id and flow_name', { flow_name: 'booking' }, 'interactive.flow_id'],
    ['with a screen for data_exchange', { flow_action: 'data_exchange', data: undefined }, 'interactive.screen'],
  ])('refuses a flow %s: 422 validation_error naming the field, nothing sent', async (_name, change, field) => {
    const customer = '14155563300';
    await customerWrites(ws, customer);
    const reply = await send(ws, { to: `+${customer}`, interactive: JSON.parse(JSON.stringify({ ...FLOW, ...change })) });
    expect(reply.status).toBe(422);
    expect(reply.body.error.code).toBe('validation_error');
    expect(reply.body.error.details).toEqual([expect.objectContaining({ field })]);
    expect(await simulator.sends(customer)).toEqual([]);
  });
});

describe('read receipts (contract §21)', () => {
  let ws: TestWorkspace;
  beforeAll(async () => {
    ws = await api.workspaceWithTemplates();
  });

  it('marks a customer message read from the number that received it, with the typing indicator on request', async () => {
    const customer = '14155564100';
    const first = await customerWrites(ws, customer);
    const typing = await api.call('POST', `/api/v1/messages/${first.id}/read`, { key: ws.key, body: { typing: true } });
    expect(typing.status).toBe(200);
    expect(typing.body.data).toEqual({ message_id: first.id, read: true, typing: true });
    const plain = await api.call('POST', `/api/v1/messages/${first.id}/read`, { key: ws.key });
    expect(plain.body.data).toEqual({ message_id: first.id, read: true, typing: false });
    const receipts = (await simulator.readReceipts()).filter((r) => r.message_id === first.wamid);
    expect(receipts.map((r) => r.request)).toEqual([
      { messaging_product: 'whatsapp', status: 'read', message_id: first.wamid, typing_indicator: { type: 'text' } },
      { messaging_product: 'whatsapp', status: 'read', message_id: first.wamid },
    ]);
    expect(receipts.every((r) => r.phone_number_id === ws.phoneNumberId)).toBe(true);
  });

  it("answers 404 for another workspace's message, 422 invalid_state for our own or one over 30 days old, 400 for a typing that is not a boolean", async () => {
    const other = await api.workspaceWithTemplates();
    const theirs = await customerWrites(other, '14155564200');
    const before = (await simulator.readReceipts()).length;
    const foreign = await api.call('POST', `/api/v1/messages/${theirs.id}/read`, { key: ws.key, body: {} });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('not_found');

    const customer = '14155564201';
    await customerWrites(ws, customer);
    const ours = await send(ws, { to: `+${customer}`, text: 'On its way' });
    const outbound = await api.call('POST', `/api/v1/messages/${ours.body.data.message_id}/read`, { key: ws.key, body: { typing: true } });
    expect(outbound.status).toBe(422);
    expect(outbound.body.error.code).toBe('invalid_state');

    // A message received 31 days ago: past what the platform allows.
    const old = '14155564202';
    const written = Math.floor(Date.now() / 1000) - 31 * 86_400;
    const aged = await arrives(ws, old, async () => {
      const payload = customerMessage(ws.wabaId, ws.phoneNumberId, old, { type: 'text', text: { body: 'hello?' }, timestamp: String(written) });
      expect(await postPlatformWebhook(api.baseUrl, payload)).toBe(200);
      return { wamid: '' };
    });
    const late = await api.call('POST', `/api/v1/messages/${aged.id}/read`, { key: ws.key, body: {} });
    expect(late.status).toBe(422);
    expect(late.body.error.code).toBe('invalid_state');

    const malformed = await api.call('POST', `/api/v1/messages/${theirs.id}/read`, { key: other.key, body: { typing: 'yes' } });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.details).toEqual([expect.objectContaining({ field: 'typing' })]);
    expect(await simulator.readReceipts()).toHaveLength(before);
  });
});

describe('template category updates (contract §21)', () => {
  it('a completed change updates the listed category and emits template.updated; a warning and an unknown template change nothing', async () => {
    const ws = await api.workspaceWithTemplates();
    const events = await subscribe(ws, ['template.updated']);
    const category = async (name: string) =>
      (await api.call('GET', `/api/v1/templates?name=${name}&language=en_US`, { key: ws.key })).body.data[0]?.category as string | undefined;

    // A template we do not have: acknowledged and ignored (nothing stored, the worker carries on).
    const unknown = {
      object: 'whatsapp_business_account',
      entry: [
        {
          id: ws.wabaId,
          time: Math.floor(Date.now() / 1000),
          changes: [
            {
              field: 'template_category_update',
              value: {
                message_template_id: 278077987957091,
                message_template_name: 'welcome_template',
                message_template_language: 'en-US',
                previous_category: 'UTILITY',
                new_category: 'MARKETING',
              },
            },
          ],
        },
      ],
    };
    expect(await postPlatformWebhook(api.baseUrl, unknown)).toBe(200);
    // The warning names the current category: nothing changes yet.
    await simulator.templateCategory({ waba_id: ws.wabaId, name: 'hello_world', language: 'en_US', category: 'MARKETING', impending: true });
    await simulator.templateCategory({ waba_id: ws.wabaId, name: 'order_update', language: 'en_US', category: 'MARKETING' });

    await eventually(
      () => category('order_update'),
      (c) => c === 'MARKETING',
    );
    const updated = await eventually(
      async () => events().filter((e) => e.type === 'template.updated'),
      (e) => e.length > 0,
    );
    expect(updated.map((e) => [e.data.name, e.data.category])).toEqual([['order_update', 'MARKETING']]);
    expect(await category('hello_world')).toBe('UTILITY');
    expect(await category('welcome_template')).toBeUndefined();
  });
});
