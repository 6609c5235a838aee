import { startSimulator, type Simulator } from '#simulator/server';
import { simulatorControl } from '../support/simulator';
import { APP_SECRET, expectedSignature, recipient, request, startReceiver, TOKEN, type Receiver } from './support';

/** The simulator's Calling API: settings, permissions, calls both ways, in the platform's shapes (docs/platform-calling.md). */
let simulator: Simulator;
let receiver: Receiver;
const control = simulatorControl(() => simulator.url);
const PHONE = '106540352242922';
const WABA = '102290129340398';
const SDP = 'v=0\r\no=- 7669997803033704573 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\n';

beforeAll(async () => {
  receiver = await startReceiver();
  simulator = await startSimulator({
    port: 0,
    accessTokens: [TOKEN],
    appSecret: APP_SECRET,
    webhookUrl: receiver.url,
    statusIntervalMs: 10,
    webhookRetryDelaysMs: [20],
  });
  simulator.registerNumber(PHONE, WABA);
  expect((await request(`${simulator.url}/v23.0/${PHONE}/settings`, 'POST', { calling: { status: 'ENABLED' } })).body).toEqual({ success: true });
});
afterAll(async () => {
  await simulator.stop();
  await receiver.close();
});

const graph = (method: string, path: string, body?: unknown) => request(`${simulator.url}/v23.0/${path}`, method, body);
const callsApi = (body: object) => graph('POST', `${PHONE}/calls`, { messaging_product: 'whatsapp', ...body });
const graphError = (code: number, message?: string) => ({ error: expect.objectContaining({ code, type: 'OAuthException', ...(message && { message }) }) });
const permissionRequest = (to: string, extra: object = {}) => ({
  messaging_product: 'whatsapp',
  recipient_type: 'individual',
  to,
  type: 'interactive',
  interactive: { type: 'call_permission_request', action: { name: 'call_permission_request' }, body: { text: 'May we call you?' }, ...extra },
});

/** The values of the webhooks of one field, oldest first, that match. */
const valuesOf = (field: string, match: (value: any) => boolean = () => true): any[] =>
  receiver.received
    .flatMap((w) => w.body.entry.flatMap((e) => e.changes))
    .filter((c) => c.field === field && match(c.value))
    .map((c) => c.value);
const callEvents = (id: string) =>
  valuesOf('calls')
    .flatMap((v) => [...(v.calls ?? []), ...(v.statuses ?? [])])
    .filter((c: any) => c.id === id);
const waitFor = (predicate: () => boolean) => receiver.waitFor(predicate, 3000);

/** A customer who accepted a temporary call permission. */
async function permittedCustomer(): Promise<string> {
  const customer = recipient();
  await control.permissionReply(PHONE, customer, true);
  return customer;
}

describe('settings', () => {
  it('answers DISABLED for a number never configured, then what was set, and posts account_settings_update for a watched change', async () => {
    const id = '100000000000101';
    simulator.registerNumber(id, WABA);
    const initial = await graph('GET', `${id}/settings`);
    expect(initial.body).toEqual({
      calling: { status: 'DISABLED', call_icon_visibility: 'DEFAULT', callback_permission_status: 'DISABLED', sip: { status: 'DISABLED' } },
      storage_configuration: { status: 'DEFAULT' },
    });
    const calling = {
      status: 'ENABLED',
      call_icon_visibility: 'DISABLE_ALL',
      call_hours: {
        status: 'ENABLED',
        timezone_id: 'America/Manaus',
        weekly_operating_hours: [{ day_of_week: 'MONDAY', open_time: '0400', close_time: '1020' }],
      },
      callback_permission_status: 'ENABLED',
      sip: { status: 'DISABLED', servers: [{ hostname: 'sip.example.com' }] },
    };
    expect(await graph('POST', `${id}/settings`, { calling })).toEqual({ status: 200, body: { success: true } });
    const read = await graph('GET', `${id}/settings?include_sip_credentials=true`);
    expect(read.body.calling).toEqual({
      ...calling,
      call_hours: { ...calling.call_hours, holiday_schedule: [] },
      sip: { status: 'DISABLED', servers: [{ hostname: 'sip.example.com', sip_user_password: expect.any(String) }] },
    });
    expect(await control.callingSettings(id)).toEqual({ ...read.body.calling, sip: { status: 'DISABLED', servers: [{ hostname: 'sip.example.com' }] } });

    await waitFor(() => valuesOf('account_settings_update').some((v) => v.phone_number_settings.phone_number_id === id));
    const webhook = receiver.received.find((w) => (w.body.entry[0].changes[0].value as any).phone_number_settings?.phone_number_id === id)!;
    expect(webhook.headers['x-hub-signature-256']).toBe(expectedSignature(webhook.raw));
    expect(webhook.body).toEqual({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: WABA,
          changes: [
            {
              value: {
                messaging_product: 'whatsapp',
                timestamp: expect.stringMatching(/^\d+$/),
                type: 'PHONE_NUMBER_SETTINGS',
                phone_number_settings: {
                  phone_number_id: id,
                  calling: expect.objectContaining({ status: 'ENABLED', sip: { status: 'DISABLED', servers: [{ hostname: 'sip.example.com', port: 5061 }] } }),
                },
              },
              field: 'account_settings_update',
            },
          ],
        },
      ],
    });
  });

  it("refuses enabling calling under a 2000 messaging limit (138015) and the page's invalid settings (100)", async () => {
    const id = '100000000000102';
    simulator.registerNumber(id, WABA, { messaging_limit_tier: 'TIER_250' });
    expect(await graph('POST', `${id}/settings`, { calling: { status: 'ENABLED' } })).toEqual({
      status: 400,
      body: graphError(138015, '(#138015) Calling cannot be enabled'),
    });
    for (const calling of [
      { status: 'ON' },
      {
        call_hours: {
          status: 'ENABLED',
          timezone_id: 'Mars/Olympus',
          weekly_operating_hours: [{ day_of_week: 'MONDAY', open_time: '0400', close_time: '1020' }],
        },
      },
      { call_hours: { status: 'ENABLED', timezone_id: 'UTC', weekly_operating_hours: [] } },
      {
        call_hours: {
          status: 'ENABLED',
          timezone_id: 'UTC',
          weekly_operating_hours: [
            { day_of_week: 'MONDAY', open_time: '0400', close_time: '1020' },
            { day_of_week: 'MONDAY', open_time: '1000', close_time: '1200' },
          ],
        },
      },
    ])
      expect(await graph('POST', `${id}/settings`, { calling })).toEqual({ status: 400, body: graphError(100) });
    expect((await graph('GET', `${id}/settings`)).body.calling.status).toBe('DISABLED');
  });
});

describe('call permissions', () => {
  it('accepts a call permission request once a day (138009 after), and shows the usage', async () => {
    const customer = recipient();
    const sent = await graph('POST', `${PHONE}/messages`, permissionRequest(customer));
    expect(sent.status).toBe(200);
    expect(sent.body.messages[0].id).toMatch(/^wamid\./);
    expect(await graph('POST', `${PHONE}/messages`, permissionRequest(customer))).toEqual({
      status: 400,
      body: graphError(138009, '(#138009) Call Permission Request Limit Hit'),
    });
    expect((await graph('POST', `${PHONE}/messages`, permissionRequest(customer, { header: { type: 'text', text: 'Hi' } }))).body).toEqual(graphError(100));

    const permissions = await graph('GET', `${PHONE}/call_permissions?user_wa_id=${customer}`);
    expect(permissions.body).toEqual({
      messaging_product: 'whatsapp',
      permission: { status: 'no_permission' },
      actions: [
        {
          action_name: 'send_call_permission_request',
          can_perform_action: false,
          limits: [
            { time_period: 'PT24H', max_allowed: 1, current_usage: 1, limit_expiration_time: expect.any(Number) },
            { time_period: 'P7D', max_allowed: 2, current_usage: 1 },
          ],
        },
        { action_name: 'start_call', can_perform_action: false, limits: [{ time_period: 'PT24H', max_allowed: 100, current_usage: 0 }] },
      ],
    });
  });

  it('refuses a permission request from a number without calling (138000), and after a permanent permission (138017)', async () => {
    const id = '100000000000103';
    expect(await request(`${simulator.url}/v23.0/${id}/messages`, 'POST', permissionRequest(recipient()))).toEqual({ status: 401, body: graphError(138000) });
    const customer = recipient();
    await control.permissionReply(PHONE, customer, true, true);
    expect((await graph('POST', `${PHONE}/messages`, permissionRequest(customer))).body).toEqual(graphError(138017));
    expect((await graph('GET', `${PHONE}/call_permissions?user_wa_id=${customer}`)).body.permission).toEqual({ status: 'permanent' });
  });

  it("posts the customer's call_permission_reply about the request, and the permission follows", async () => {
    const customer = recipient();
    const requestId = (await graph('POST', `${PHONE}/messages`, permissionRequest(customer))).body.messages[0].id;
    const reply = await control.permissionReply(PHONE, customer, true);
    expect(reply).toEqual({
      ok: true,
      wamid: expect.any(String),
      permission: { status: 'temporary', expiration_time: expect.any(Number) },
      delivered_status: 200,
    });
    const [value] = valuesOf('messages', (v) => v.messages?.[0]?.id === reply.wamid);
    expect(value.contacts).toEqual([{ profile: { name: expect.any(String) }, wa_id: customer }]);
    expect(value.messages[0]).toEqual({
      context: { from: value.metadata.display_phone_number, id: requestId },
      from: customer,
      id: reply.wamid,
      timestamp: expect.stringMatching(/^\d+$/),
      type: 'interactive',
      interactive: {
        type: 'call_permission_reply',
        call_permission_reply: {
          response: 'accept',
          is_permanent: false,
          expiration_timestamp: String(reply.permission.expiration_time),
          response_source: 'user_action',
        },
      },
    });
    // Seven days (168 hours) from now.
    expect(reply.permission.expiration_time - Date.now() / 1000).toBeGreaterThan(7 * 86_400 - 60);

    const declined = await control.permissionReply(PHONE, customer, false);
    const [rejected] = valuesOf('messages', (v) => v.messages?.[0]?.id === declined.wamid);
    expect(rejected.messages[0].interactive.call_permission_reply).toEqual({ response: 'reject', response_source: 'user_action' });
    expect(declined.permission).toEqual({ status: 'no_permission' });
  });
});

describe('business-initiated calls', () => {
  it('refuses a connect without a permission (138006, HTTP 401)', async () => {
    expect(await callsApi({ to: recipient(), action: 'connect', session: { sdp_type: 'offer', sdp: SDP } })).toEqual({
      status: 401,
      body: graphError(138006, '(#138006) No approved call permission from the recipient'),
    });
  });

  it('rings, connects with the customer SDP answer, reports ACCEPTED, and ends COMPLETED on terminate', async () => {
    const customer = recipient();
    expect((await graph('POST', `${PHONE}/messages`, permissionRequest(customer))).status).toBe(200);
    await control.permissionReply(PHONE, customer, true);
    const started = await callsApi({ to: customer, action: 'connect', session: { sdp_type: 'offer', sdp: SDP }, biz_opaque_callback_data: 'call-7' });
    expect(started).toEqual({ status: 200, body: { messaging_product: 'whatsapp', calls: [{ id: expect.stringMatching(/^wacid\./) }] } });
    const id = started.body.calls[0].id as string;
    expect((await callsApi({ to: customer, action: 'connect', session: { sdp_type: 'offer', sdp: SDP } })).body).toEqual(graphError(138003));
    await waitFor(() => callEvents(id).length === 1);
    expect(callEvents(id)).toEqual([
      { id, timestamp: expect.stringMatching(/^\d+$/), type: 'call', status: 'RINGING', recipient_id: customer, biz_opaque_callback_data: 'call-7' },
    ]);

    expect(await control.answerCall(id, true)).toEqual({ ok: true, delivered_status: 200 });
    const [connect] = valuesOf('calls', (v) => v.calls?.[0]?.id === id);
    expect(connect).toEqual({
      messaging_product: 'whatsapp',
      metadata: { display_phone_number: expect.stringMatching(/^1555\d{7}$/), phone_number_id: PHONE },
      contacts: [{ profile: { name: expect.any(String) }, wa_id: customer }],
      calls: [
        {
          id,
          to: customer,
          from: connect.metadata.display_phone_number,
          event: 'connect',
          timestamp: expect.stringMatching(/^\d+$/),
          direction: 'BUSINESS_INITIATED',
          biz_opaque_callback_data: 'call-7',
          session: { sdp_type: 'answer', sdp: expect.stringContaining('a=setup:active') },
        },
      ],
    });
    expect(callEvents(id).map((e) => e.status ?? e.event)).toEqual(['RINGING', 'connect', 'ACCEPTED']);
    // The connected call reset the permission request limits.
    expect((await graph('POST', `${PHONE}/messages`, permissionRequest(customer))).status).toBe(200);

    expect(await callsApi({ call_id: id, action: 'terminate' })).toEqual({ status: 200, body: { messaging_product: 'whatsapp', success: true } });
    await waitFor(() => callEvents(id).some((e) => e.event === 'terminate'));
    const terminate = callEvents(id).find((e) => e.event === 'terminate');
    expect(terminate).toEqual({
      id,
      to: customer,
      from: connect.metadata.display_phone_number,
      event: 'terminate',
      direction: 'BUSINESS_INITIATED',
      biz_opaque_callback_data: 'call-7',
      timestamp: expect.stringMatching(/^\d+$/),
      status: 'COMPLETED',
      start_time: expect.stringMatching(/^\d+$/),
      end_time: expect.stringMatching(/^\d+$/),
      duration: expect.any(Number),
    });
    expect(await callsApi({ call_id: id, action: 'terminate' })).toEqual({ status: 400, body: graphError(100) });
    expect((await control.callStates(PHONE)).find((c) => c.id === id)).toMatchObject({
      state: 'ended',
      status: 'COMPLETED',
      actions: [{ action: 'connect' }, { action: 'terminate' }],
    });
    expect((await control.calls(PHONE)).filter((c) => c.call_id === id)).toEqual([
      expect.objectContaining({
        action: 'connect',
        to: customer,
        session: { sdp_type: 'offer', sdp: SDP },
        phone_number_id: PHONE,
        received_at: expect.any(String),
      }),
      expect.objectContaining({ action: 'terminate', call_id: id }),
    ]);
  });

  it('declined: REJECTED then terminate FAILED without a duration; the fourth unanswered call revokes the permission', async () => {
    const customer = await permittedCustomer();
    for (let i = 0; i < 4; i++) {
      const id = (await callsApi({ to: customer, action: 'connect', session: { sdp_type: 'offer', sdp: SDP } })).body.calls[0].id as string;
      await control.answerCall(id, false);
      expect(callEvents(id).map((e) => e.status)).toEqual(expect.arrayContaining(['REJECTED', 'FAILED']));
      const terminate = callEvents(id).find((e) => e.event === 'terminate');
      expect(terminate).not.toHaveProperty('duration');
      expect(await control.answerCall(id, true)).toEqual({ error: expect.objectContaining({ code: 100 }) });
    }
    await waitFor(() => valuesOf('messages', (v) => v.messages?.[0]?.from === customer).length === 2);
    const revoked = valuesOf('messages', (v) => v.messages?.[0]?.from === customer).at(-1);
    expect(revoked.messages[0]).not.toHaveProperty('context');
    expect(revoked.messages[0].interactive.call_permission_reply).toEqual({ response: 'reject', response_source: 'automatic' });
    expect((await callsApi({ to: customer, action: 'connect', session: { sdp_type: 'offer', sdp: SDP } })).body).toEqual(graphError(138006));
  });
});

describe('user-initiated calls', () => {
  it('posts connect with the SDP offer; pre_accept and accept need an SDP answer; the hang-up ends it COMPLETED with its duration', async () => {
    const customer = recipient();
    const { call_id: id, delivered_status } = await control.incomingCall(PHONE, customer);
    expect(delivered_status).toBe(200);
    expect(callEvents(id)).toEqual([
      {
        id,
        to: expect.stringMatching(/^1555\d{7}$/),
        from: customer,
        event: 'connect',
        timestamp: expect.stringMatching(/^\d+$/),
        direction: 'USER_INITIATED',
        session: { sdp_type: 'offer', sdp: expect.stringContaining('a=ice-lite') },
      },
    ]);
    expect((await callsApi({ call_id: id, action: 'pre_accept' })).body).toEqual(graphError(100));
    expect((await callsApi({ call_id: id, action: 'accept', session: { sdp_type: 'offer', sdp: SDP } })).body).toEqual(graphError(100));
    expect(await callsApi({ call_id: id, action: 'pre_accept', session: { sdp_type: 'answer', sdp: SDP } })).toEqual({
      status: 200,
      body: { messaging_product: 'whatsapp', success: true },
    });
    expect(await callsApi({ call_id: id, action: 'accept', session: { sdp_type: 'answer', sdp: SDP }, biz_opaque_callback_data: 'desk-3' })).toEqual({
      status: 200,
      body: { messaging_product: 'whatsapp', success: true },
    });

    expect(await control.hangUp(id, 42)).toEqual({ ok: true, delivered_status: 200 });
    const terminate = callEvents(id).find((e) => e.event === 'terminate');
    expect(terminate).toEqual({
      id,
      to: expect.stringMatching(/^1555\d{7}$/),
      from: customer,
      event: 'terminate',
      direction: 'USER_INITIATED',
      biz_opaque_callback_data: 'desk-3',
      timestamp: expect.stringMatching(/^\d+$/),
      status: 'COMPLETED',
      start_time: expect.stringMatching(/^\d+$/),
      end_time: String(Number(terminate.start_time) + 42),
      duration: 42,
    });
    expect(await callsApi({ call_id: id, action: 'terminate' })).toEqual({ status: 400, body: graphError(100) });
  });

  it('a call hung up before it is answered ends FAILED without a duration; a business reject ends it too', async () => {
    const missed = (await control.incomingCall(PHONE, recipient())).call_id;
    await control.hangUp(missed);
    expect(callEvents(missed).find((e) => e.event === 'terminate')).toMatchObject({ status: 'FAILED' });
    expect(callEvents(missed).find((e) => e.event === 'terminate')).not.toHaveProperty('start_time');
    expect((await callsApi({ call_id: missed, action: 'accept', session: { sdp_type: 'answer', sdp: SDP } })).body).toEqual(graphError(100));

    const rejected = (await control.incomingCall(PHONE, recipient())).call_id;
    expect((await callsApi({ call_id: rejected, action: 'reject' })).body).toEqual({ messaging_product: 'whatsapp', success: true });
    await waitFor(() => callEvents(rejected).some((e) => e.event === 'terminate'));
    expect(await control.hangUp(rejected)).toEqual({ error: expect.objectContaining({ code: 100 }) });
  });

  it('with callback permissions on, a call grants a temporary permission, announced with the call id as context', async () => {
    const id = '100000000000104';
    simulator.registerNumber(id, WABA);
    await graph('POST', `${id}/settings`, { calling: { status: 'ENABLED', callback_permission_status: 'ENABLED' } });
    const customer = recipient();
    const { call_id } = await control.incomingCall(id, customer);
    const [reply] = valuesOf('messages', (v) => v.messages?.[0]?.from === customer);
    expect(reply.messages[0]).toMatchObject({
      context: { id: call_id },
      interactive: { call_permission_reply: { response: 'accept', is_permanent: false, response_source: 'automatic' } },
    });
    expect((await graph('GET', `${id}/call_permissions?user_wa_id=${customer}`)).body.permission.status).toBe('temporary');
  });
});
