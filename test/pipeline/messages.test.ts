import { createKey } from '#shared/domain/api-keys';
import { createWorkspace } from '#shared/domain/workspaces';
import { useTestApi, type TestWorkspace } from '../support/api';
import { simulatorControl } from '../support/simulator';
import { eventually } from '../support/wait';

const api = useTestApi({ runtime: true });

const workspace = api.workspaceWithTemplates;

const message = (ws: TestWorkspace, id: string) => api.call('GET', `/api/v1/messages/${id}`, { key: ws.key });
/** Waits for a status, and for every timestamp up to it: reports may arrive out of order, `read` before `delivered`. */
const until = (ws: TestWorkspace, id: string, status: string) =>
  eventually(
    () => message(ws, id),
    (r) => r.body.data?.status === status && (status !== 'read' || Boolean(r.body.data.metadata.delivered_at)),
  );
const simulator = simulatorControl(() => api.simulator.url);
const sends = simulator.sends;

describe('POST /api/v1/messages', () => {
  it('renders a template, answers 202 queued, and the message reaches read with timestamps and the platform id', async () => {
    const ws = await workspace();
    const reply = await api.call('POST', '/api/v1/messages', {
      key: ws.key,
      body: { to: '+1 415 555 0101', template: 'order_update', variables: { 2: 'A-17', 1: 'Ada' } },
    });
    expect(reply.status).toBe(202);
    expect(reply.body.data).toEqual({
      message_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      recipient: '14155550101',
      business_number_id: ws.phoneNumberId,
      status: 'queued',
      message_type: 'template',
      template: 'order_update',
      language: 'en_US',
      created_at: expect.any(String),
    });
    const read = (await until(ws, reply.body.data.message_id, 'read')).body.data;
    expect(read).toMatchObject({
      content: 'Hi Ada, your order A-17 has shipped.',
      direction: 'outbound',
      template_name: 'order_update',
      error: null,
      provider_message_id: expect.stringMatching(/^wamid\./),
      metadata: { sent_at: expect.any(String), delivered_at: expect.any(String), read_at: expect.any(String), failed_at: null },
    });
    const [platformCall] = await sends('14155550101');
    expect(platformCall.wamid).toBe(read.provider_message_id);
    expect(platformCall.request).toMatchObject({
      to: '14155550101',
      type: 'template',
      biz_opaque_callback_data: read.id,
      template: {
        name: 'order_update',
        language: { code: 'en_US' },
        components: [
          {
            type: 'body',
            parameters: [
              { type: 'text', text: 'Ada' },
              { type: 'text', text: 'A-17' },
            ],
          },
        ],
      },
    });
  });

  it('takes the language from template.language, then language, then en_US', async () => {
    const ws = await workspace();
    const spanish = await api.call('POST', '/api/v1/messages', {
      key: ws.key,
      body: { to: '+14155550102', template: { name: 'order_update', language: 'es_ES' }, language: 'en_US', variables: ['Eva', '9'] },
    });
    expect(spanish.body.data.language).toBe('es_ES');
    expect((await message(ws, spanish.body.data.message_id)).body.data.content).toBe('Hola Eva, tu pedido 9 ha sido enviado.');
    const byBody = await api.call('POST', '/api/v1/messages', {
      key: ws.key,
      body: { to: '+14155550102', template: 'order_update', language: 'es_ES', variables: ['Eva', 9] },
    });
    expect(byBody.body.data.language).toBe('es_ES');
    const none = await api.call('POST', '/api/v1/messages', { key: ws.key, body: { to: '+14155550102', template: 'hello_world' } });
    expect(none.body.data.language).toBe('en_US');
  });

  it.each([
    ['unknown template', { template: 'nope' }, 'template_not_found'],
    ['no such language', { template: { name: 'welcome', language: 'es_ES' }, variables: ['x'] }, 'template_not_found'],
    ['pending template', { template: 'spring_sale', variables: ['10%'] }, 'template_not_approved'],
    ['rejected template', { template: 'old_offer', variables: ['x'] }, 'template_not_approved'],
    ['too few variables', { template: 'order_update', variables: ['Ada'] }, 'template_variables_mismatch'],
    ['too many variables', { template: 'hello_world', variables: ['x'] }, 'template_variables_mismatch'],
    ['object keys not 1..n', { template: 'order_update', variables: { 1: 'a', 3: 'b' } }, 'template_variables_mismatch'],
  ])('%s → 422', async (_name, body, code) => {
    const ws = await workspace();
    const reply = await api.call('POST', '/api/v1/messages', { key: ws.key, body: { to: '+14155550103', ...body } });
    expect(reply.status).toBe(422);
    expect(reply.body.error.code).toBe(code);
    expect((await api.call('GET', '/api/v1/messages', { key: ws.key })).body.pagination.totalCount).toBe(0);
  });

  it('fails a 9999 number with the platform code 131026', async () => {
    const ws = await workspace();
    const reply = await api.call('POST', '/api/v1/messages', { key: ws.key, body: { to: '+14155559999', template: 'hello_world' } });
    const failed = (await until(ws, reply.body.data.message_id, 'failed')).body.data;
    expect(failed.error).toEqual({ code: 131026, title: 'Message undeliverable', details: 'Message Undeliverable.' });
    expect(failed.metadata.sent_at).toEqual(expect.any(String));
    expect(failed.metadata.failed_at).toEqual(expect.any(String));
  });

  it('records a terminal platform error on the message without retrying', async () => {
    // A number the platform does not know (not numeric): it answers code 100, which is not retryable.
    const workspace = await createWorkspace({ name: 'Broken number', plan: 'pro', phone_number_id: 'not-a-number', waba_id: '1' });
    const ws = {
      id: workspace.id,
      key: (await createKey(workspace.id, { name: 'k' })).api_key,
      phoneNumberId: workspace.phone_number_id,
      wabaId: workspace.waba_id,
    };
    await api.call('POST', '/api/v1/templates/sync', { key: ws.key });
    const reply = await api.call('POST', '/api/v1/messages', { key: ws.key, body: { to: '+14155550104', template: 'welcome', variables: ['Ada'] } });
    const failed = (await until(ws, reply.body.data.message_id, 'failed')).body.data;
    expect(failed.error).toMatchObject({ code: 100 });
    expect(failed.provider_message_id).toBeNull();
    expect(await sends('14155550104')).toHaveLength(0);
  });

  it('retries after injected 429s, then sends exactly once', async () => {
    const ws = await workspace();
    await simulator.faults({ fail_next: 2 });
    process.env.SEND_BACKOFF_SCALE = '0.001';
    try {
      const reply = await api.call('POST', '/api/v1/messages', { key: ws.key, body: { to: '+14155550105', template: 'hello_world' } });
      await until(ws, reply.body.data.message_id, 'read');
      expect(await sends('14155550105')).toHaveLength(1);
    } finally {
      delete process.env.SEND_BACKOFF_SCALE;
      await simulator.resetFaults();
    }
  });

  it('refuses session text while the window is closed, and accepts it after the customer writes', async () => {
    const ws = await workspace();
    const closed = await api.call('POST', '/api/v1/messages', { key: ws.key, body: { to: '+14155550106', text: 'Hello?' } });
    expect(closed.status).toBe(422);
    expect(closed.body.error.code).toBe('session_window_closed');

    const inbound = await simulator.inbound({ phone_number_id: ws.phoneNumberId, from: '14155550106', text: 'Where is my order?', name: 'Grace' });
    expect(inbound.delivered_status).toBe(200);
    await eventually(
      () => api.call('GET', '/api/v1/messages?direction=inbound', { key: ws.key }),
      (r) => r.body.data.length === 1,
    );

    const open = await api.call('POST', '/api/v1/messages', { key: ws.key, body: { to: '14155550106', text: 'On its way!' } });
    expect(open.status).toBe(202);
    expect(open.body.data).toMatchObject({ message_type: 'text', template: null, language: null });
    const sent = (await until(ws, open.body.data.message_id, 'read')).body.data;
    expect(sent.content).toBe('On its way!');
  });

  it('retries after injected 5xx answers', async () => {
    const ws = await workspace();
    await simulator.faults({ server_error_share: 1 });
    process.env.SEND_BACKOFF_SCALE = '0.05'; // 0.2 s, 0.4 s, 0.8 s …: a few retries while the faults last
    try {
      const reply = await api.call('POST', '/api/v1/messages', { key: ws.key, body: { to: '+14155550108', template: 'hello_world' } });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect((await message(ws, reply.body.data.message_id)).body.data.status).toBe('queued');
      await simulator.resetFaults();
      await until(ws, reply.body.data.message_id, 'read');
      expect(await sends('14155550108')).toHaveLength(1);
    } finally {
      delete process.env.SEND_BACKOFF_SCALE;
      await simulator.resetFaults();
    }
  });

  it('stores inbound messages, creating the contact with the profile name', async () => {
    const ws = await workspace();
    await simulator.inbound({ phone_number_id: ws.phoneNumberId, from: '14155550107', text: 'Hi there', name: 'Lin Chen' });
    const list = await eventually(
      () => api.call('GET', '/api/v1/messages?direction=inbound', { key: ws.key }),
      (r) => r.body.data.length === 1,
    );
    expect(list.body.data[0]).toMatchObject({ phone_number: '14155550107', status: 'received', direction: 'inbound', message_type: 'text' });
    expect((await message(ws, list.body.data[0].id)).body.data.content).toBe('Hi there');
    const contacts = await api.call('GET', '/api/v1/contacts', { key: ws.key });
    expect(contacts.body.data).toMatchObject([{ phone_number: '14155550107', name: 'Lin Chen' }]);
  });
});
