import { Groups, GROUP_LIMITS } from '#simulator/groups';
import { startSimulator, type Simulator } from '#simulator/server';
import { simulatorControl } from '../support/simulator';
import {
  APP_SECRET,
  expectedSignature,
  PHONE_NUMBER_ID,
  recipient,
  request,
  sleep,
  startReceiver,
  templateMessage,
  textMessage,
  TOKEN,
  type Receiver,
} from './support';

/** The simulator's Groups API (docs/platform-groups.md, "What the simulator implements"). */
const INTERVAL = 20;
const OTHER_NUMBER_ID = '106540352242999';
let simulator: Simulator;
let receiver: Receiver;
const control = simulatorControl(() => simulator.url);

beforeAll(async () => {
  receiver = await startReceiver();
  simulator = await startSimulator({ port: 0, accessTokens: [TOKEN], appSecret: APP_SECRET, webhookUrl: receiver.url, statusIntervalMs: INTERVAL });
});

afterAll(async () => {
  await simulator.stop();
  await receiver.close();
});

type Json = Record<string, any>;
const graph = (path: string, method = 'GET', body?: unknown, token: string | null = TOKEN) => request(`${simulator.url}/v26.0/${path}`, method, body, token);
const groupBody = (body: Json = {}) => ({ messaging_product: 'whatsapp', subject: 'Watch Enthusiasts', ...body });

/** Every `value.groups[]` item posted in `field`, with the webhook around it. */
const itemsOf = (field: string) =>
  receiver.received.flatMap((webhook) =>
    webhook.body.entry.flatMap((entry) =>
      entry.changes.filter((c) => c.field === field).flatMap((c) => ((c.value as Json).groups as Json[]).map((item) => ({ item, webhook }))),
    ),
  );

async function waitForItem(field: string, predicate: (item: Json) => boolean, timeoutMs = 3000): Promise<Json> {
  await receiver.waitFor(() => itemsOf(field).some(({ item }) => predicate(item)), timeoutMs);
  return itemsOf(field).find(({ item }) => predicate(item))!.item;
}

/** Creates a group through the API and waits for its `group_create`: the group id. */
async function createGroup(body: Json = {}, phoneNumberId = PHONE_NUMBER_ID): Promise<string> {
  const reply = await graph(`${phoneNumberId}/groups`, 'POST', groupBody(body));
  expect(reply.status).toBe(200);
  const created = await waitForItem('group_lifecycle_update', (item) => item.request_id === reply.body.request_id);
  return created.group_id as string;
}

/** A group with these customers in it. */
async function groupWith(...waIds: string[]): Promise<string> {
  const groupId = await createGroup();
  for (const waId of waIds) expect(await control.groupJoin(groupId, waId)).toMatchObject({ ok: true, joined: true });
  return groupId;
}

const statusWebhooksOf = (wamid: string) =>
  receiver.received.map((w) => w.body.entry[0].changes[0].value as Json).filter((value) => value.statuses?.some((s: Json) => s.id === wamid));

describe('creating a group', () => {
  it('answers the request id only, then posts a signed group_create with that request id, the group id and the invite link', async () => {
    const reply = await graph(`${PHONE_NUMBER_ID}/groups`, 'POST', groupBody({ subject: '  Watch Enthusiasts  ', description: 'Timepieces.' }));
    expect(reply).toEqual({ status: 200, body: { messaging_product: 'whatsapp', request_id: expect.any(String) } });

    await waitForItem('group_lifecycle_update', (item) => item.request_id === reply.body.request_id);
    const { item, webhook } = itemsOf('group_lifecycle_update').find(({ item }) => item.request_id === reply.body.request_id)!;
    expect(webhook.headers['x-hub-signature-256']).toBe(expectedSignature(webhook.raw));
    expect(webhook.body).toEqual({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: PHONE_NUMBER_ID,
          changes: [
            {
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: expect.stringMatching(/^1555\d{7}$/), phone_number_id: PHONE_NUMBER_ID },
                groups: [item],
              },
              field: 'group_lifecycle_update',
            },
          ],
        },
      ],
    });
    expect(item).toEqual({
      timestamp: expect.stringMatching(/^\d{10}$/),
      group_id: expect.stringMatching(/^Y2FwaV9ncm91cDo[A-Za-z0-9+/]+ZD$/),
      type: 'group_create',
      request_id: reply.body.request_id,
      subject: 'Watch Enthusiasts',
      description: 'Timepieces.',
      invite_link: expect.stringMatching(/^https:\/\/chat\.whatsapp\.com\/[A-Za-z0-9]{22}$/),
      join_approval_mode: 'auto_approve',
    });
    expect(Buffer.from(item.group_id.replace(/ZD$/, '='), 'base64').toString()).toMatch(/^capi_group:1555\d{7}:120363\d{12}$/);

    const info = await graph(
      `${item.group_id}?fields=subject,description,join_approval_mode,suspended,creation_timestamp,total_participant_count,participants`,
    );
    expect(info.body).toEqual({
      messaging_product: 'whatsapp',
      id: item.group_id,
      subject: 'Watch Enthusiasts',
      creation_timestamp: expect.any(Number),
      suspended: false,
      description: 'Timepieces.',
      total_participant_count: 0,
      participants: [],
      join_approval_mode: 'auto_approve',
    });
    expect((await graph(item.group_id)).body).toEqual({ messaging_product: 'whatsapp', id: item.group_id });
  });

  it('refuses a bad subject, description or join approval mode with 100, and a request without a valid token with 190', async () => {
    for (const body of [
      { subject: '   ' },
      { subject: 'x'.repeat(129) },
      { description: 'x'.repeat(2049) },
      { join_approval_mode: 'ON' },
      { messaging_product: 'sms' },
    ]) {
      const reply = await graph(`${PHONE_NUMBER_ID}/groups`, 'POST', groupBody(body));
      expect([reply.status, reply.body.error.code]).toEqual([400, 100]);
    }
    expect((await graph(`${PHONE_NUMBER_ID}/groups`, 'POST', groupBody(), null)).body.error.code).toBe(190);
    expect((await graph(`${PHONE_NUMBER_ID}/groups`, 'POST', groupBody({ subject: 'x'.repeat(128) }))).status).toBe(200);
  });

  it('holds creations while asked to: no webhook until released, then each held one completes', async () => {
    expect(await control.holdGroupCreation(true)).toMatchObject({ ok: true, hold: true, released: [] });
    const first = (await graph(`${PHONE_NUMBER_ID}/groups`, 'POST', groupBody({ subject: 'Held 1' }))).body.request_id;
    const second = (await graph(`${PHONE_NUMBER_ID}/groups`, 'POST', groupBody({ subject: 'Held 2' }))).body.request_id;
    await sleep(INTERVAL * 6);
    expect(itemsOf('group_lifecycle_update').filter(({ item }) => [first, second].includes(item.request_id))).toEqual([]);

    const released = await control.holdGroupCreation(false);
    expect(released.released.map((r) => r.request_id)).toEqual([first, second]);
    const created = await waitForItem('group_lifecycle_update', (item) => item.request_id === second);
    expect(created).toMatchObject({ type: 'group_create', subject: 'Held 2', group_id: expect.any(String) });
    expect((await control.groups(PHONE_NUMBER_ID)).map((g) => g.id)).toContain(created.group_id);
  });

  it("fails a number's 10,001st live group with 131211", () => {
    const groups = new Groups();
    const settings = { subject: 'Many', join_approval_mode: 'auto_approve' as const };
    for (let i = 0; i < GROUP_LIMITS.groupsPerNumber; i++) expect(groups.complete(groups.request('1', settings))).toHaveProperty('group');
    expect(groups.complete(groups.request('1', settings))).toEqual({ full: true });
    expect(groups.complete(groups.request('2', settings))).toHaveProperty('group');
    groups.delete(groups.live('1')[0]);
    expect(groups.complete(groups.request('1', settings))).toHaveProperty('group');
  });
});

describe('joining', () => {
  it('lets a customer join an auto-approve group through the link: group_participants_add, reason invite_link', async () => {
    const groupId = await createGroup();
    const waId = recipient();
    expect(await control.groupJoin(groupId, waId, 'Ana')).toMatchObject({ ok: true, joined: true, delivered_status: 200 });
    const added = await waitForItem('group_participants_update', (item) => item.group_id === groupId && item.type === 'group_participants_add');
    expect(added).toEqual({
      timestamp: expect.any(Number),
      group_id: groupId,
      type: 'group_participants_add',
      reason: 'invite_link',
      added_participants: [{ wa_id: waId }],
    });
    expect((await graph(`${groupId}?fields=participants,total_participant_count`)).body).toMatchObject({
      participants: [{ wa_id: waId }],
      total_participant_count: 1,
    });
  });

  it('opens a join request when approval is required, lists it, and approves it with Meta’s answers and webhook', async () => {
    const groupId = await createGroup({ join_approval_mode: 'approval_required' });
    const waId = recipient();
    const joined = await control.groupJoin(groupId, waId);
    expect(joined).toMatchObject({ ok: true, joined: false, join_request_id: expect.any(String) });
    const created = await waitForItem('group_participants_update', (item) => item.group_id === groupId && item.type === 'group_join_request_created');
    expect(created).toEqual({
      timestamp: expect.any(Number),
      group_id: groupId,
      type: 'group_join_request_created',
      join_request_id: joined.join_request_id,
      wa_id: waId,
    });

    const listed = await graph(`${groupId}/join_requests`);
    expect(listed.body.data).toEqual([{ join_request_id: joined.join_request_id, wa_id: waId, creation_timestamp: expect.any(Number) }]);

    const approved = await graph(`${groupId}/join_requests`, 'POST', { messaging_product: 'whatsapp', join_requests: [joined.join_request_id] });
    expect(approved).toEqual({ status: 200, body: { messaging_product: 'whatsapp', approved_join_requests: [joined.join_request_id] } });
    const added = await waitForItem('group_participants_update', (item) => item.group_id === groupId && item.type === 'group_participants_add');
    expect(added.added_participants).toEqual([{ input: waId, wa_id: waId }]);
    expect((await graph(`${groupId}/join_requests`)).body.data).toEqual([]);

    const again = await graph(`${groupId}/join_requests`, 'POST', { messaging_product: 'whatsapp', join_requests: [joined.join_request_id] });
    expect([again.status, again.body.error.code]).toEqual([400, 131213]);
  });

  it('answers a partly failed approval with 206, and a rejection without a webhook', async () => {
    const groupId = await createGroup({ join_approval_mode: 'approval_required' });
    const [a, b] = [recipient(), recipient()];
    const requestA = (await control.groupJoin(groupId, a)).join_request_id!;
    const requestB = (await control.groupJoin(groupId, b)).join_request_id!;
    const partial = await graph(`${groupId}/join_requests`, 'POST', { messaging_product: 'whatsapp', join_requests: [requestA, 'J-unknown'] });
    expect(partial).toEqual({
      status: 206,
      body: {
        messaging_product: 'whatsapp',
        approved_join_requests: [requestA],
        failed_join_requests: [
          { join_request_id: 'J-unknown', errors: [expect.objectContaining({ code: 131213, title: 'Group join request does not exist.' })] },
        ],
        errors: [{ code: 131201, message: 'Request partially succeeded', title: 'Request partially succeeded' }],
      },
    });
    const rejected = await graph(`${groupId}/join_requests`, 'DELETE', { messaging_product: 'whatsapp', join_requests: [requestB] });
    expect(rejected).toEqual({ status: 200, body: { messaging_product: 'whatsapp', rejected_join_requests: [requestB] } });
    expect((await control.groups(PHONE_NUMBER_ID)).find((g) => g.id === groupId)!.participants.map((p) => p.wa_id)).toEqual([a]);
  });

  it('refuses a 9th participant with 131204', async () => {
    const customers = Array.from({ length: GROUP_LIMITS.participants }, () => recipient());
    const groupId = await groupWith(...customers);
    const refused = await control.groupJoin(groupId, recipient());
    expect((refused as Json).error).toMatchObject({ code: 131204, message: '(#131204) Participant overlimit' });
    expect((await graph(`${groupId}?fields=total_participant_count`)).body.total_participant_count).toBe(8);
  });

  it('stops the old invite link from joining once it is reset', async () => {
    const groupId = await createGroup();
    const old = (await graph(`${groupId}/invite_link`)).body.invite_link as string;
    const reset = await graph(`${groupId}/invite_link`, 'POST', { messaging_product: 'whatsapp' });
    expect(reset.body).toEqual({ messaging_product: 'whatsapp', invite_link: expect.stringMatching(/^https:\/\/chat\.whatsapp\.com\//) });
    expect(reset.body.invite_link).not.toBe(old);
    const stale = await request(`${simulator.url}/_simulate/groups/${groupId}/join`, 'POST', { wa_id: recipient(), invite_link: old }, null);
    expect([stale.status, stale.body.error.code]).toEqual([400, 100]);
    const fresh = await request(`${simulator.url}/_simulate/groups/${groupId}/join`, 'POST', { wa_id: recipient(), invite_link: reset.body.invite_link }, null);
    expect(fresh.body).toMatchObject({ ok: true, joined: true });
  });
});

describe('participants leaving', () => {
  it('removes a participant: success, then group_participants_remove initiated by the business; they cannot join again', async () => {
    const [a, b] = [recipient(), recipient()];
    const groupId = await groupWith(a, b);
    const removed = await graph(`${groupId}/participants`, 'DELETE', { messaging_product: 'whatsapp', participants: [{ user: `+${a}` }] });
    expect(removed).toEqual({ status: 200, body: { success: true } });
    const item = await waitForItem('group_participants_update', (i) => i.group_id === groupId && i.type === 'group_participants_remove');
    expect(item).toEqual({
      timestamp: expect.stringMatching(/^\d+$/),
      group_id: groupId,
      type: 'group_participants_remove',
      request_id: expect.any(String),
      removed_participants: [{ input: `+${a}` }],
      initiated_by: 'business',
    });
    expect((await graph(`${groupId}?fields=participants`)).body.participants).toEqual([{ wa_id: b }]);
    expect(((await control.groupJoin(groupId, a)) as Json).error.code).toBe(100);
  });

  it('answers 131212 for a non-member, and 206 with the partial-failure webhook for a mix', async () => {
    const member = recipient();
    const groupId = await groupWith(member);
    const stranger = recipient();
    const none = await graph(`${groupId}/participants`, 'DELETE', { messaging_product: 'whatsapp', participants: [{ user: stranger }] });
    expect([none.status, none.body.error]).toEqual([400, expect.objectContaining({ code: 131212, error_data: expect.any(Object) })]);

    const mixed = await graph(`${groupId}/participants`, 'DELETE', { messaging_product: 'whatsapp', participants: [{ user: member }, { user: stranger }] });
    expect(mixed).toEqual({
      status: 206,
      body: { success: true, errors: [{ code: 131201, message: 'Request partially succeeded', title: 'Request partially succeeded' }] },
    });
    const item = await waitForItem('group_participants_update', (i) => i.group_id === groupId && i.type === 'group_participants_remove');
    expect(item).toMatchObject({
      initiated_by: 'business',
      removed_participants: [{ input: member }],
      failed_participants: [{ input: stranger, errors: [expect.objectContaining({ code: 131212 })] }],
      errors: [expect.objectContaining({ code: 131201, title: 'Not All Participants Remove Succeeded' })],
    });

    for (const participants of [[], Array.from({ length: 9 }, () => ({ user: recipient() })), [{ user: member, user_id: 'US.1' }]]) {
      expect((await graph(`${groupId}/participants`, 'DELETE', { messaging_product: 'whatsapp', participants })).body.error.code).toBe(100);
    }
    const twice = await graph(`${groupId}/participants`, 'DELETE', {
      messaging_product: 'whatsapp',
      participants: [{ user: stranger }, { user: `+${stranger}` }],
    });
    expect(twice.body.error.code).toBe(131202);
  });

  it('reports a participant leaving on their own as initiated by the participant', async () => {
    const waId = recipient();
    const groupId = await groupWith(waId);
    expect(await control.groupLeave(groupId, waId)).toMatchObject({ ok: true, left: true });
    const item = await waitForItem('group_participants_update', (i) => i.group_id === groupId && i.type === 'group_participants_remove');
    expect(item).toEqual({
      timestamp: expect.any(String),
      group_id: groupId,
      type: 'group_participants_remove',
      removed_participants: [{ wa_id: waId }],
      initiated_by: 'participant',
    });
  });
});

describe('messages', () => {
  it('sends text to a group: the group id as input and wa_id, sent about the group, then delivered and read per participant', async () => {
    // Numbers ending in 1: none of them stands for an undelivered or unread message (simulator/statuses.ts).
    const [a, b] = [recipient('1'), recipient('1')];
    const groupId = await groupWith(a, b);
    const reply = await graph(`${PHONE_NUMBER_ID}/messages`, 'POST', textMessage(groupId, 'Hello group', { recipient_type: 'group' }));
    expect(reply).toEqual({
      status: 200,
      body: { messaging_product: 'whatsapp', contacts: [{ input: groupId, wa_id: groupId }], messages: [{ id: expect.stringMatching(/^wamid\./) }] },
    });
    const wamid = reply.body.messages[0].id as string;
    expect((await control.sends(groupId)).map((s) => s.wamid)).toEqual([wamid]);

    await receiver.waitFor(() => statusWebhooksOf(wamid).length === 3);
    const [sent, delivered, read] = statusWebhooksOf(wamid);
    expect(sent.statuses).toEqual([{ id: wamid, recipient_id: groupId, recipient_type: 'group', status: 'sent', timestamp: expect.any(String) }]);
    expect(sent.contacts).toBeUndefined();
    const perParticipant = (status: string, priced: boolean) =>
      [a, b].map((waId) => ({
        id: wamid,
        status,
        timestamp: expect.any(String),
        recipient_id: groupId,
        recipient_type: 'group',
        recipient_participant_id: waId,
        ...(priced && { pricing: { billable: false, pricing_model: 'PMP', type: 'free_group_customer_service', category: 'group_service' } }),
      }));
    expect(delivered.statuses).toEqual(perParticipant('delivered', true));
    expect(delivered.contacts).toEqual([a, b].map((waId) => ({ profile: { name: expect.any(String) }, wa_id: waId })));
    expect(read.statuses).toEqual(perParticipant('read', false));
  });

  it('prices a template to a group in its group category, and fails a group nobody joined with 131020', async () => {
    const waId = recipient();
    const groupId = await groupWith(waId);
    const template = await graph(`${PHONE_NUMBER_ID}/messages`, 'POST', {
      ...templateMessage(groupId, 'order_update', 'en_US', ['Ana', 'A-1']),
      recipient_type: 'group',
    });
    expect(template.status).toBe(200);
    await receiver.waitFor(() => statusWebhooksOf(template.body.messages[0].id).length === 3);
    expect(statusWebhooksOf(template.body.messages[0].id)[1].statuses[0].pricing).toMatchObject({ type: 'regular', category: 'group_utility', billable: true });

    const empty = await createGroup();
    const lonely = (await graph(`${PHONE_NUMBER_ID}/messages`, 'POST', textMessage(empty, 'Anyone?', { recipient_type: 'group' }))).body.messages[0].id;
    await receiver.waitFor(() => statusWebhooksOf(lonely).length === 2);
    expect(statusWebhooksOf(lonely)[1].statuses[0]).toMatchObject({
      status: 'failed',
      recipient_type: 'group',
      errors: [{ code: 131020, title: 'Bad Group' }],
    });
  });

  it('refuses an interactive message, a sticker and an authentication template to a group with 131009', async () => {
    const groupId = await groupWith(recipient());
    const interactive = {
      messaging_product: 'whatsapp',
      recipient_type: 'group',
      to: groupId,
      type: 'interactive',
      interactive: { type: 'button', body: { text: 'Pick' }, action: { buttons: [{ type: 'reply', reply: { id: 'a', title: 'A' } }] } },
    };
    const sticker = { messaging_product: 'whatsapp', recipient_type: 'group', to: groupId, type: 'sticker', sticker: { id: '123' } };
    const authentication = {
      messaging_product: 'whatsapp',
      recipient_type: 'group',
      to: groupId,
      type: 'template',
      template: {
        name: 'login_code',
        language: { code: 'en_US' },
        components: [
          { type: 'body', parameters: [{ type: 'text', text: '123456' }] },
          { type: 'button', sub_type: 'url', index: 0, parameters: [{ type: 'text', text: '123456' }] },
        ],
      },
    };
    for (const body of [interactive, sticker, authentication]) {
      const reply = await graph(`${PHONE_NUMBER_ID}/messages`, 'POST', body);
      expect([reply.status, reply.body.error.code]).toEqual([400, 131009]);
    }
    expect((await control.sends(groupId)).length).toBe(0);
  });

  it('refuses an unknown group, another number’s group and a deleted one with 131041, a suspended one with 131207', async () => {
    const groupId = await groupWith(recipient());
    const unknown = 'Y2FwaV9ncm91cDoxNTU1MDAwMDAwMDoxMjAzNjMwMDAwMDAwMDAwMDAZD';
    for (const [number, to] of [
      [PHONE_NUMBER_ID, unknown],
      [OTHER_NUMBER_ID, groupId],
    ]) {
      const reply = await graph(`${number}/messages`, 'POST', textMessage(to, 'Hi', { recipient_type: 'group' }));
      expect([reply.status, reply.body.error.code, reply.body.error.message]).toEqual([400, 131041, '(#131041) Group unknown']);
    }
    expect((await graph(`${unknown}?fields=subject`)).body.error.code).toBe(131041);
    const phoneNumber = await graph(`${PHONE_NUMBER_ID}/messages`, 'POST', textMessage(recipient(), 'Hi', { recipient_type: 'group' }));
    expect([phoneNumber.status, phoneNumber.body.error.code]).toEqual([400, 100]);

    expect(await control.groupSuspend(groupId, true)).toMatchObject({ ok: true, changed: true });
    expect(await waitForItem('group_status_update', (i) => i.group_id === groupId)).toEqual({
      timestamp: expect.any(String),
      type: 'group_suspend',
      group_id: groupId,
    });
    const suspended = await graph(`${PHONE_NUMBER_ID}/messages`, 'POST', textMessage(groupId, 'Hi', { recipient_type: 'group' }));
    expect([suspended.status, suspended.body.error.code]).toEqual([403, 131207]);
    expect((await graph(`${groupId}?fields=suspended`)).body.suspended).toBe(true);
  });

  it('posts a participant’s message with the group id in the message', async () => {
    const waId = recipient();
    const groupId = await groupWith(waId);
    const posted = await control.groupMessage(groupId, waId, 'Hello group');
    expect(posted).toMatchObject({ ok: true, wamid: expect.stringMatching(/^wamid\./) });
    const webhook = receiver.received.find((w) => (w.body.entry[0].changes[0].value.messages ?? []).some((m) => m.id === posted.wamid))!;
    expect(webhook.body.entry[0].changes[0]).toEqual({
      field: 'messages',
      value: {
        messaging_product: 'whatsapp',
        metadata: { display_phone_number: expect.any(String), phone_number_id: PHONE_NUMBER_ID },
        contacts: [{ profile: { name: expect.any(String) }, wa_id: waId }],
        messages: [{ from: waId, group_id: groupId, id: posted.wamid, timestamp: expect.any(String), text: { body: 'Hello group' }, type: 'text' }],
      },
    });
    expect(((await control.groupMessage(groupId, recipient(), 'Not in it')) as Json).error.code).toBe(100);
  });
});

describe('managing a group', () => {
  it('updates the subject: success, then group_settings_update', async () => {
    const groupId = await createGroup();
    expect(await graph(groupId, 'POST', { messaging_product: 'whatsapp', subject: 'New subject' })).toEqual({ status: 200, body: { success: true } });
    const item = await waitForItem('group_settings_update', (i) => i.group_id === groupId);
    expect(item).toEqual({
      timestamp: expect.any(String),
      group_id: groupId,
      type: 'group_settings_update',
      request_id: expect.any(String),
      group_subject: { text: 'New subject', update_successful: true },
    });
    expect((await graph(`${groupId}?fields=subject`)).body.subject).toBe('New subject');
  });

  it('deletes a group: success, group_delete, and the id is unknown from then on', async () => {
    const groupId = await groupWith(recipient());
    expect(await graph(groupId, 'DELETE')).toEqual({ status: 200, body: { success: true } });
    const item = await waitForItem('group_lifecycle_update', (i) => i.group_id === groupId && i.type === 'group_delete');
    expect(item).toEqual({ timestamp: expect.any(String), group_id: groupId, type: 'group_delete', request_id: expect.any(String) });
    for (const reply of [await graph(`${groupId}?fields=subject`), await graph(groupId, 'DELETE'), await graph(`${groupId}/invite_link`)]) {
      expect([reply.status, reply.body.error.code]).toEqual([400, 131041]);
    }
    const send = await graph(`${PHONE_NUMBER_ID}/messages`, 'POST', textMessage(groupId, 'Hi', { recipient_type: 'group' }));
    expect(send.body.error.code).toBe(131041);
    expect((await graph(`${PHONE_NUMBER_ID}/groups?limit=1024`)).body.data.groups.map((g: Json) => g.id)).not.toContain(groupId);
  });

  it('lists live groups in pages of data.groups, and refuses a cursor it never gave with 131059', async () => {
    const number = '106540352242777';
    const ids = [await createGroup({}, number), await createGroup({}, number), await createGroup({}, number)];
    const first = await graph(`${number}/groups?limit=2`);
    expect(first.body.data.groups).toEqual(ids.slice(0, 2).map((id) => ({ id, subject: 'Watch Enthusiasts', created_at: expect.any(Number) })));
    const next = await graph(`${number}/groups?limit=2&after=${first.body.paging.cursors.after}`);
    expect(next.body.data.groups.map((g: Json) => g.id)).toEqual([ids[2]]);
    expect((await graph(`${number}/groups?after=bm90LWEtY3Vyc29y`)).body.error.code).toBe(131059);
    expect((await graph(`${number}/groups?limit=1025`)).body.error.code).toBe(100);
  });

  it("does not show a group to another business's token", async () => {
    const groupId = await createGroup();
    const signup = (await request(`${simulator.url}/_simulate/embedded-signup`, 'POST', {}, null)).body;
    const query = new URLSearchParams({ client_id: '100000000000001', client_secret: APP_SECRET, code: signup.code });
    const token = (await request(`${simulator.url}/v26.0/oauth/access_token?${query}`, 'GET', undefined, null)).body.access_token as string;
    const reply = await graph(`${groupId}?fields=subject`, 'GET', undefined, token);
    expect([reply.status, reply.body.error.code]).toEqual([400, 131041]);
    expect((await graph(`${PHONE_NUMBER_ID}/groups`, 'GET', undefined, token)).body.error.code).toBe(100);
  });
});
