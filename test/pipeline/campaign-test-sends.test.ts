import { useTestApi, type TestWorkspace } from '../support/api';
import { simulatorControl } from '../support/simulator';
import { eventually } from '../support/wait';

/** Test sends of a campaign (contract §15), and `failed_by_code` with the simulator's `fail_status`. */
const api = useTestApi({ runtime: true, statusIntervalMs: 20 });
const simulator = simulatorControl(() => api.simulator.url);
afterEach(() => simulator.resetFaults());

type Data = Record<string, any>;

const createCampaign = async (ws: TestWorkspace, template: string) =>
  (await api.call('POST', '/api/v1/campaigns', { key: ws.key, body: { name: `Test of ${template}`, template_name: template } })).body.data;
const launch = (ws: TestWorkspace, id: string, body: unknown) => api.call('POST', `/api/v1/campaigns/${id}/launch`, { key: ws.key, body });
const testSend = (ws: TestWorkspace, id: string, body: unknown) => api.call('POST', `/api/v1/campaigns/${id}/test`, { key: ws.key, body });
const results = async (ws: TestWorkspace, id: string): Promise<Data> => (await api.call('GET', `/api/v1/campaigns/${id}/results`, { key: ws.key })).body.data;
const message = async (ws: TestWorkspace, id: string): Promise<Data> => (await api.call('GET', `/api/v1/messages/${id}`, { key: ws.key })).body.data;
const campaignMessages = async (ws: TestWorkspace, id: string): Promise<Data[]> =>
  (await api.call('GET', `/api/v1/messages?campaign_id=${id}`, { key: ws.key })).body.data;
/** Once read (or failed) no report moves a message again: the metrics after it are final. */
const settled = (ws: TestWorkspace, id: string) =>
  eventually(
    () => message(ws, id),
    (m) => m.status === 'read' || m.status === 'failed',
    30_000,
  );
/**
 * Counts trail the messages (docs/messaging.md §6), a run of moves counted in one transaction
 * for the workspace and the campaign together: once the workspace's count of read messages
 * reaches `n`, every move to read so far is in the campaign's metrics too, or never will be.
 */
const readCounted = (ws: TestWorkspace, n: number) =>
  eventually(
    () => api.call('GET', '/api/v1/messages?status=read', { key: ws.key }),
    (r) => r.body.pagination.totalCount === n,
    15_000,
  );
const templateSent = async (phone: string) =>
  (
    await eventually(
      () => simulator.sends(phone),
      (s) => s.length > 0,
      30_000,
    )
  ).map((s) => s.request.template);

describe('POST /api/v1/campaigns/{id}/test', () => {
  it('sends a draft to exactly its numbers, once each, without touching the campaign', async () => {
    const ws = await api.workspaceWithTemplates();
    const campaign = await createCampaign(ws, 'hello_world');
    const reply = await testSend(ws, campaign.id, { phones: ['+1 415 555 7201', '14155557202', '+14155557201'] });
    expect(reply.status).toBe(202);
    expect(reply.body.data.messages).toEqual([
      { message_id: expect.any(String), recipient: '14155557201' },
      { message_id: expect.any(String), recipient: '14155557202' },
    ]);
    for (const { message_id, recipient } of reply.body.data.messages) {
      const done = await settled(ws, message_id);
      expect(done).toMatchObject({
        phone_number: recipient,
        status: 'read',
        campaign_id: null,
        test_of_campaign: campaign.id,
        template_name: 'hello_world',
        content: 'Hello from our team.',
      });
      expect(await templateSent(recipient)).toEqual([{ name: 'hello_world', language: { code: 'en_US' } }]);
    }
    expect(await results(ws, campaign.id)).toMatchObject({ status: 'draft', metrics: { total_messages: 0, pending: 0, read: 0 }, failed_by_code: {} });
    expect(await campaignMessages(ws, campaign.id)).toEqual([]);
    // Still a draft: it launches as usual.
    expect((await launch(ws, campaign.id, { recipients: [{ phone: '+14155557203' }] })).status).toBe(202);
  });

  it('a draft whose template needs parameters has none to send: 422 template_variables_mismatch, nothing sent', async () => {
    const ws = await api.workspaceWithTemplates();
    const campaign = await createCampaign(ws, 'order_update');
    const reply = await testSend(ws, campaign.id, { phones: ['+14155557211'] });
    expect(reply.status).toBe(422);
    expect(reply.body.error.code).toBe('template_variables_mismatch');
    expect(await simulator.sends('14155557211')).toEqual([]);
  });

  it('renders a launched campaign as it rendered it for its recipients (header, buttons, macros) and leaves its metrics and results unchanged', async () => {
    const ws = await api.workspaceWithTemplates();
    const campaign = await createCampaign(ws, 'spring_promo');
    const launched = await launch(ws, campaign.id, {
      recipients: [
        { phone: '+14155557221', name: 'Ana', variables: ['{{name}} 20%', 'Sunday'] },
        { phone: '+14155557222', name: 'Bo', variables: ['{{name}} 30%', 'Monday'] },
      ],
      template_header: { image: { link: 'https://cdn.example.com/spring.jpg' } },
      template_buttons: [{ index: 0, value: 'p{{phone}}' }],
    });
    expect(launched.status).toBe(202);
    await eventually(
      () => results(ws, campaign.id),
      (r) => r.status === 'completed',
      30_000,
    );
    for (const m of await campaignMessages(ws, campaign.id)) await settled(ws, m.id);
    await readCounted(ws, 2);
    const before = await results(ws, campaign.id);
    expect(before.metrics).toMatchObject({ total_messages: 2, read: 2 });
    const [firstRecipientRequest] = await templateSent('14155557221');
    const [secondRecipientRequest] = await templateSent('14155557222');

    // One number of the audience (its own parameters) and one outside it (the first recipient's, its macros filled for that number with an empty name).
    const reply = await testSend(ws, campaign.id, { phones: ['+14155557222', '+14155557229'] });
    expect(reply.status).toBe(202);
    expect(reply.body.data.messages.map((m: Data) => m.recipient)).toEqual(['14155557222', '14155557229']);
    for (const { message_id } of reply.body.data.messages)
      expect(await settled(ws, message_id)).toMatchObject({ status: 'read', campaign_id: null, test_of_campaign: campaign.id });

    const toMember = await templateSent('14155557222');
    expect(toMember).toHaveLength(2);
    expect(toMember[1]).toEqual(secondRecipientRequest);
    expect(JSON.stringify(firstRecipientRequest)).toContain('Ana 20%');
    const asForTheTestNumber = JSON.parse(
      JSON.stringify(firstRecipientRequest).replaceAll('Ana 20%', '14155557229 20%').replaceAll('p14155557221', 'p14155557229'),
    );
    expect(await templateSent('14155557229')).toEqual([asForTheTestNumber]);

    await readCounted(ws, 4);
    expect(await results(ws, campaign.id)).toEqual(before);
    expect((await campaignMessages(ws, campaign.id)).map((m) => m.phone_number).sort()).toEqual(['14155557221', '14155557222']);
  });

  it('refuses a cancelled campaign with 409 invalid_state', async () => {
    const ws = await api.workspaceWithTemplates();
    const campaign = await createCampaign(ws, 'hello_world');
    expect((await api.call('POST', `/api/v1/campaigns/${campaign.id}/cancel`, { key: ws.key })).status).toBe(200);
    const reply = await testSend(ws, campaign.id, { phones: ['+14155557231'] });
    expect(reply.status).toBe(409);
    expect(reply.body.error.code).toBe('invalid_state');
    expect(await simulator.sends('14155557231')).toEqual([]);
  });

  it.each([
    ['6 numbers', { phones: ['+14155557241', '+14155557242', '+14155557243', '+14155557244', '+14155557245', '+14155557246'] }, 'phones'],
    ['an invalid number', { phones: ['+14155557241', 'not a phone'] }, 'phones.1'],
    ['no number', { phones: [] }, 'phones'],
    ['no phones', {}, 'phones'],
  ])('refuses %s with 400 validation_error and sends nothing', async (_, body, field) => {
    const ws = await api.workspaceWithTemplates();
    const campaign = await createCampaign(ws, 'hello_world');
    const reply = await testSend(ws, campaign.id, body);
    expect(reply.status).toBe(400);
    expect(reply.body.error.code).toBe('validation_error');
    expect(reply.body.error.details.map((d: Data) => d.field)).toContain(field);
    expect(await simulator.sends('14155557241')).toEqual([]);
  });

  it('answers 404 for a campaign of another workspace', async () => {
    const ws = await api.workspaceWithTemplates();
    const other = await api.workspaceWithTemplates();
    const campaign = await createCampaign(other, 'hello_world');
    expect((await testSend(ws, campaign.id, { phones: ['+14155557251'] })).status).toBe(404);
  });
});

describe('failed_by_code', () => {
  it('counts the failures fail_status causes by their platform code; a test send that fails is not counted', async () => {
    const ws = await api.workspaceWithTemplates();
    await simulator.faults({ fail_status: { code: 131049, share: 1 } });
    const campaign = await createCampaign(ws, 'hello_world');
    expect((await launch(ws, campaign.id, { recipients: [{ phone: '+14155557261' }, { phone: '+14155557262' }] })).status).toBe(202);
    // Completed once both are `sent`; the failed reports are counted by the stream step after that.
    const done = await eventually(
      () => results(ws, campaign.id),
      (r) => r.status === 'completed' && r.metrics.failed === 2,
      30_000,
    );
    expect(done.metrics).toMatchObject({ total_messages: 2, failed: 2, sent: 0, read: 0 });
    expect(done.failed_by_code).toEqual({ '131049': 2 });
    for (const m of await campaignMessages(ws, campaign.id)) expect((await message(ws, m.id)).error).toMatchObject({ code: 131049, title: expect.any(String) });

    const reply = await testSend(ws, campaign.id, { phones: ['+14155557263'] });
    expect(await settled(ws, reply.body.data.messages[0].message_id)).toMatchObject({ status: 'failed', error: { code: 131049 } });
    expect(await results(ws, campaign.id)).toEqual(done);
  });

  it('counts our own codes too: a message that never went out because the recipient opted out', async () => {
    const ws = await api.workspaceWithTemplates();
    const contact = (await api.call('POST', '/api/v1/contacts', { key: ws.key, body: { phone_number: '+14155557271', name: 'Ada' } })).body.data;
    expect((await api.call('PATCH', `/api/v1/contacts/${contact.id}`, { key: ws.key, body: { opted_out: true } })).status).toBe(200);
    const campaign = await createCampaign(ws, 'welcome');
    expect(
      (await launch(ws, campaign.id, { recipients: [{ phone: '+14155557271' }, { phone: '+14155557272' }], template_variables: ['{{name}}'] })).status,
    ).toBe(202);
    const done = await eventually(
      () => results(ws, campaign.id),
      (r) => r.status === 'completed',
      30_000,
    );
    expect(done.failed_by_code).toEqual({ recipient_opted_out: 1 });
  });
});
