import { Webhook } from 'standardwebhooks';
import { useTestApi } from '../support/api';
import { startReceiver } from '../support/receiver';
import { postPlatformWebhook } from '../support/platform-webhook';
import { simulatorControl } from '../support/simulator';
import { eventually } from '../support/wait';

/** A number the business keeps using in the WhatsApp Business app (contract §23, coexistence), onboarded over /admin/v1. */
const api = useTestApi({ runtime: true, statusIntervalMs: 20 });
const simulator = simulatorControl(() => api.simulator.url);

let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver?.stop());

const admin = (method: string, path: string, body?: unknown) =>
  api.call(method, `/admin/v1${path}`, { key: api.operatorKey, ...(body !== undefined && { body }) });

/** A business completes the simulator's Embedded Signup in its Business app mode, and the operator onboards it in coexistence. */
async function coexistingWorkspace() {
  const opened = await admin('POST', '/workspaces', { name: 'Shop with the app', plan: 'growth' });
  const { workspace, key } = opened.body.data as { workspace: { id: string }; key: { api_key: string } };
  const signup = await fetch(`${api.simulator.url}/_simulate/embedded-signup`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ coexistence: true }),
  });
  const business = (await signup.json()) as { code: string; phone_number_id: string; waba_id: string };
  const onboarded = await admin('POST', `/workspaces/${workspace.id}/onboarding`, { ...business, mode: 'coexistence' });
  expect(onboarded.status).toBe(200);
  expect(onboarded.body.data.onboarding).toMatchObject({ mode: 'coexistence', status: 'completed' });
  return { id: workspace.id, key: key.api_key, phoneNumberId: business.phone_number_id, wabaId: business.waba_id };
}

type Event = { type: string; data: Record<string, any> };

describe('coexistence with the WhatsApp Business app (contract §23)', () => {
  it("onboards without registering the number, at the platform's 20 messages a second, then takes echoes, history and the app's contacts", async () => {
    const ws = await coexistingWorkspace();
    const number = (await api.call('GET', '/api/v1/numbers', { key: ws.key })).body.data[0];
    expect(number).toMatchObject({ id: ws.phoneNumberId, throughput_mps: 20, coexistence: { status: 'shared' } });
    const sub = (await api.call('POST', '/api/v1/webhooks', { key: ws.key, body: { url: receiver.url, events: ['message.echoed', 'message.received'] } })).body
      .data;
    const wh = new Webhook(sub.signing_secret);
    const events = () =>
      receiver.received.flatMap((r) => {
        try {
          return [wh.verify(r.body, r.headers as Record<string, string>) as Event];
        } catch {
          return [];
        }
      });

    // The business writes from the app: an outbound message of the app, never sent by the service, at no cost.
    const customer = '14155563001';
    await simulator.coexistenceEcho(ws.phoneNumberId, customer, 'Your order is ready');
    const echoed = await eventually(
      () => api.call('GET', `/api/v1/messages?phone=${customer}`, { key: ws.key }),
      (r) => r.body.data.length === 1,
    );
    expect(echoed.body.data[0]).toMatchObject({ direction: 'outbound', source: 'business_app', cost: null });
    await eventually(
      async () => events().filter((e) => e.type === 'message.echoed'),
      (e) => e.length === 1,
    );
    expect(await simulator.sends(customer)).toEqual([]);

    // History of a customer who wrote long ago: imported, no window opened, nothing announced as received.
    const old = '14155563002';
    const longAgo = Math.floor(Date.now() / 1000) - 30 * 24 * 3600;
    await simulator.coexistenceHistory(ws.phoneNumberId, [
      { from: old, text: 'Do you ship abroad?', timestamp: longAgo },
      { to: old, text: 'Yes, everywhere', timestamp: longAgo + 60 },
    ]);
    const history = await eventually(
      () => api.call('GET', `/api/v1/messages?phone=${old}`, { key: ws.key }),
      (r) => r.body.data.length === 2,
    );
    expect(history.body.data.map((m: { source: string; direction: string }) => [m.source, m.direction]).sort()).toEqual([
      ['history', 'inbound'],
      ['history', 'outbound'],
    ]);
    const text = await api.call('POST', '/api/v1/messages', { key: ws.key, body: { to: `+${old}`, text: 'Anything else?' } });
    expect(text.status).toBe(422);
    expect(text.body.error.code).toBe('session_window_closed');
    expect(events().filter((e) => e.type === 'message.received')).toEqual([]);

    // The same history again: stored once.
    await simulator.coexistenceHistory(ws.phoneNumberId, [{ from: old, text: 'Do you ship abroad?', timestamp: longAgo }]);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await api.call('GET', `/api/v1/messages?phone=${old}`, { key: ws.key })).body.pagination.totalCount).toBe(2);

    // The app's contacts land in the contact book.
    await simulator.coexistenceContacts(ws.phoneNumberId, [{ phone: '14155563003', name: 'Grace Hopper' }]);
    const contact = await eventually(
      () => api.call('GET', '/api/v1/contacts?search=grace', { key: ws.key }),
      (r) => r.body.data.length === 1,
    );
    expect(contact.body.data[0]).toMatchObject({ phone_number: '14155563003', name: 'Grace Hopper', source: 'business_app' });
  });

  it("shows a number whose business went back to the app alone, and its sends fail with the platform's error", async () => {
    const ws = await coexistingWorkspace();
    await simulator.coexistenceOffboard(ws.phoneNumberId);
    await eventually(
      () => api.call('GET', '/api/v1/numbers', { key: ws.key }),
      (r) => r.body.data[0].coexistence?.status === 'app_only',
    );
    const sent = await api.call('POST', '/api/v1/messages', { key: ws.key, body: { to: '+14155563004', template: 'hello_world' } });
    expect(sent.status).toBe(202);
    const failed = await eventually(
      () => api.call('GET', `/api/v1/messages/${sent.body.data.message_id}`, { key: ws.key }),
      (r) => r.body.data.status === 'failed',
    );
    expect(failed.body.data.error.code).toBe(133010);
  });

  it('stores an echo once however often and however concurrently it comes, also inside history, and never doubles a message the API sent', async () => {
    const ws = await coexistingWorkspace();
    const customer = '14155563010';
    const appMessage = (wamid: string, field: 'smb_message_echoes' | 'history') => ({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: ws.wabaId,
          changes: [
            {
              field,
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: '15550783881', phone_number_id: ws.phoneNumberId },
                ...(field === 'smb_message_echoes'
                  ? {
                      message_echoes: [{ from: '15550783881', to: customer, id: wamid, timestamp: '1700255121', type: 'text', text: { body: 'From the app' } }],
                    }
                  : {
                      history: [
                        {
                          metadata: { phase: 0, chunk_order: 1, progress: 100 },
                          threads: [
                            {
                              id: customer,
                              messages: [
                                {
                                  from: '15550783881',
                                  to: customer,
                                  id: wamid,
                                  timestamp: '1700255121',
                                  type: 'text',
                                  text: { body: 'From the app' },
                                  history_context: { status: 'READ' },
                                },
                              ],
                            },
                          ],
                        },
                      ],
                    }),
              },
            },
          ],
        },
      ],
    });
    const wamid = `wamid.echo-${ws.id}`;
    // More deliveries at once than the local stack's workers take, the history's copy among them.
    const statuses = await Promise.all([
      ...Array.from({ length: 8 }, () => postPlatformWebhook(api.baseUrl, appMessage(wamid, 'smb_message_echoes'))),
      postPlatformWebhook(api.baseUrl, appMessage(wamid, 'history')),
    ]);
    expect(statuses.every((status) => status === 200)).toBe(true);
    await eventually(
      () => api.call('GET', `/api/v1/messages?phone=${customer}`, { key: ws.key }),
      (r) => r.body.data.length >= 1,
    );
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const stored = (await api.call('GET', `/api/v1/messages?phone=${customer}`, { key: ws.key })).body;
    expect(stored.pagination.totalCount).toBe(1);

    // A message the API sent, echoed back under its platform id: still one message, the API's.
    const sent = await api.call('POST', '/api/v1/messages', { key: ws.key, body: { to: '+14155563011', template: 'hello_world' } });
    const withId = await eventually(
      () => api.call('GET', `/api/v1/messages/${sent.body.data.message_id}`, { key: ws.key }),
      (r) => r.body.data.provider_message_id !== null,
    );
    const echoOfOurs = appMessage(withId.body.data.provider_message_id, 'smb_message_echoes');
    (echoOfOurs.entry[0].changes[0].value as { message_echoes: { to: string }[] }).message_echoes[0].to = '14155563011';
    expect(await postPlatformWebhook(api.baseUrl, echoOfOurs)).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const ours = (await api.call('GET', '/api/v1/messages?phone=14155563011', { key: ws.key })).body.data;
    expect(ours).toHaveLength(1);
    expect(ours[0]).not.toHaveProperty('source');
  });
});
