/** Launching to a segment (contract §15): tags any/all, exclusions across every source, custom fields, opt-outs. */
import { useTestApi, type TestWorkspace } from '../support/api';
import { simulatorControl } from '../support/simulator';
import { eventually } from '../support/wait';

const api = useTestApi({ runtime: true, statusIntervalMs: 20 });
const simulator = simulatorControl(() => api.simulator.url);

const workspace = api.workspaceWithTemplates;
const createCampaign = async (ws: TestWorkspace) =>
  (await api.call('POST', '/api/v1/campaigns', { key: ws.key, body: { name: 'Segmented', template_name: 'welcome' } })).body.data;
const launch = (ws: TestWorkspace, id: string, body: unknown) => api.call('POST', `/api/v1/campaigns/${id}/launch`, { key: ws.key, body });
const results = async (ws: TestWorkspace, id: string) => (await api.call('GET', `/api/v1/campaigns/${id}/results`, { key: ws.key })).body.data;
const campaignMessages = async (ws: TestWorkspace, id: string) =>
  Promise.all(
    (await api.call('GET', `/api/v1/messages?campaign_id=${id}&pageSize=100`, { key: ws.key })).body.data.map(
      async (m: { id: string }) => (await api.call('GET', `/api/v1/messages/${m.id}`, { key: ws.key })).body.data,
    ),
  );

/** Each campaign message as `{number} {content}`, or `{number} {error code}` when it failed, sorted. */
const outcomes = async (ws: TestWorkspace, id: string) =>
  (await campaignMessages(ws, id)).map((m) => `${m.phone_number} ${m.status === 'failed' ? m.error.code : m.content}`).sort();
const completed = (ws: TestWorkspace, id: string) =>
  eventually(
    () => results(ws, id),
    (r) => r.status === 'completed',
    30_000,
  );

/** Contacts by name; `welcome` is a MARKETING template with one variable. */
async function contactBook(ws: TestWorkspace) {
  const contacts = [
    { phone: '+14155580001', name: 'Ada', tags: ['VIP', 'Newsletter'], custom_fields: { city: 'Lisbon' } },
    { phone: '+14155580002', name: 'Eve', tags: ['gold', 'newsletter'], custom_fields: { city: 'Lisbon' } },
    { phone: '+14155580003', name: 'Bob', tags: ['vip', 'newsletter', 'Blocked'], custom_fields: { city: 'Lisbon' } },
    { phone: '+14155580004', name: 'Cy', tags: ['vip', 'newsletter'], custom_fields: { city: 'Porto' } },
    { phone: '+14155580005', name: 'Dee', tags: ['newsletter'], custom_fields: { city: 'Lisbon' } },
    { phone: '+14155580006', name: 'Fay', tags: ['vip'], custom_fields: { city: 'Lisbon' } },
    { phone: '+14155580007', name: 'Gil', tags: ['vip', 'newsletter'], custom_fields: { city: 'Lisbon' } },
    { phone: '+14155580008', name: 'Hal', tags: ['blocked'], custom_fields: { city: 'Porto' } },
  ];
  const reply = await api.call('POST', '/api/v1/contacts/bulk', { key: ws.key, body: { contacts } });
  expect(reply.body.data.processed_count).toBe(contacts.length);
  const byName = Object.fromEntries(reply.body.data.contacts.map((c: { id: string; name: string }) => [c.name, c.id]));
  expect((await api.call('PATCH', `/api/v1/contacts/${byName.Gil}`, { key: ws.key, body: { opted_out: true } })).status).toBe(200);
  return byName;
}

describe('campaign segments', () => {
  afterEach(() => delete process.env.SEGMENT_RESOLVED_LATER_ABOVE);

  // Over the threshold, the segment is resolved by the fan-out after the launch answered: the answer counts the other sources only.
  it.each([
    ['resolved at launch', undefined, { total_recipients: 4, excluded_opted_out: 1, audience_complete: true }],
    ['resolved in the background', '2', { total_recipients: 3, excluded_opted_out: 0, audience_complete: false }],
  ])(
    'reaches exactly the tagged contacts with the custom field, less excluded tags from every source, and fails opted-out numbers unsent (%s)',
    async (_, threshold, answer) => {
      if (threshold) process.env.SEGMENT_RESOLVED_LATER_ABOVE = threshold;
      const ws = await workspace();
      const ids = await contactBook(ws);
      const group = (await api.call('POST', '/api/v1/groups', { key: ws.key, body: { name: 'Regulars' } })).body.data;
      await api.call('POST', `/api/v1/groups/${group.id}/contacts`, { key: ws.key, body: { contact_ids: [ids.Bob, ids.Hal, ids.Eve] } });
      const campaign = await createCampaign(ws);

      const reply = await launch(ws, campaign.id, {
        recipients: [{ phone: '+14155580003' }, { phone: '+14155589990', name: 'Walk-in' }],
        contact_ids: [ids.Ada, ids.Hal],
        group_ids: [group.id],
        segment: { tags_any: ['vip', 'GOLD'], tags_all: ['NEWSLETTER'], exclude_tags: ['blocked'], custom_fields: { city: 'Lisbon' } },
        template_variables: ['{{name}}'],
      });
      expect(reply.status).toBe(202);
      // Walk-in, Ada (a contact and a segment member, sent once), Eve (a group and a segment member), Gil (opted out);
      // Bob and Hal excluded whichever source named them.
      expect(reply.body.data).toMatchObject({ campaign_id: campaign.id, status: 'running', ...answer });

      const done = await completed(ws, campaign.id);
      expect(done.metrics).toMatchObject({ total_messages: 4, pending: 0, failed: 1 });
      expect((await api.call('GET', `/api/v1/campaigns/${campaign.id}`, { key: ws.key })).body.data.total_recipients).toBe(4);
      expect(await outcomes(ws, campaign.id)).toEqual([
        '14155580001 Welcome to our service, Ada!',
        '14155580002 Welcome to our service, Eve!',
        '14155580007 recipient_opted_out',
        '14155589990 Welcome to our service, Walk-in!',
      ]);
      expect(await simulator.sends('14155580007')).toHaveLength(0);
      expect(await simulator.sends('14155580003')).toHaveLength(0);
    },
    60_000,
  );

  it('selects by any of some tags alone, with the custom field, less the excluded tag', async () => {
    const ws = await workspace();
    await contactBook(ws);
    const campaign = await createCampaign(ws);
    const reply = await launch(ws, campaign.id, {
      segment: { tags_any: ['NEWSLETTER', 'gold'], exclude_tags: ['blocked'], custom_fields: { city: 'Lisbon' } },
      template_variables: ['{{name}}'],
    });
    expect(reply.status).toBe(202);
    await completed(ws, campaign.id);
    expect(await outcomes(ws, campaign.id)).toEqual([
      '14155580001 Welcome to our service, Ada!',
      '14155580002 Welcome to our service, Eve!',
      '14155580005 Welcome to our service, Dee!',
      '14155580007 recipient_opted_out',
    ]);
  }, 60_000);

  it('selects by custom fields alone from the contact book', async () => {
    const ws = await workspace();
    await contactBook(ws);
    const campaign = await createCampaign(ws);
    const reply = await launch(ws, campaign.id, { segment: { custom_fields: { city: 'Porto' } }, template_variables: ['{{name}}'] });
    expect(reply.status).toBe(202);
    expect(reply.body.data).toMatchObject({ total_recipients: 2, excluded_opted_out: 0 });
    const done = await completed(ws, campaign.id);
    expect(done.metrics.total_messages).toBe(2);
    expect((await campaignMessages(ws, campaign.id)).map((m) => m.phone_number).sort()).toEqual(['14155580004', '14155580008']);
  }, 60_000);

  it('refuses a segment that matches nobody, or no source at all, and leaves the campaign draft', async () => {
    const ws = await workspace();
    await contactBook(ws);
    const campaign = await createCampaign(ws);
    const refusals = [
      { body: { segment: { tags_any: ['nobody'] } }, status: 422, code: 'empty_audience' },
      { body: { segment: { tags_all: ['vip', 'gold'] } }, status: 422, code: 'empty_audience' },
      { body: { segment: { tags_any: ['blocked'], exclude_tags: ['Blocked'] } }, status: 422, code: 'empty_audience' },
      { body: { segment: { tags_any: ['vip'], custom_fields: { city: 'Faro' } } }, status: 422, code: 'empty_audience' },
      { body: { segment: { exclude_tags: ['blocked'] } }, status: 400, code: 'validation_error' },
      { body: { segment: { tags_any: ['vip'], exclude_tag: ['blocked'] } }, status: 400, code: 'validation_error' },
    ];
    for (const { body, status, code } of refusals) {
      const reply = await launch(ws, campaign.id, { ...body, template_variables: ['x'] });
      expect([JSON.stringify(body), reply.status, reply.body.error?.code]).toEqual([JSON.stringify(body), status, code]);
    }
    expect((await api.call('GET', `/api/v1/campaigns/${campaign.id}`, { key: ws.key })).body.data.status).toBe('draft');
  }, 60_000);
});
