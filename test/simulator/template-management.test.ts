import { startSimulator, type Simulator } from '#simulator/server';
import { APP_SECRET, request, startReceiver, TOKEN, type Receiver } from './support';

/**
 * The simulator's template management as the platform answers it (docs/templates.md §5):
 * creation, the name in use, resumable uploads, edit limits, deletes, and reviews pushed as
 * `message_template_status_update`.
 */
const WABA = '102290129340398';
const APP = '100000000000009';
let simulator: Simulator;
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver();
  simulator = await startSimulator({ port: 0, accessTokens: [TOKEN], appSecret: APP_SECRET, webhookUrl: receiver.url });
});
afterAll(async () => {
  await simulator.stop();
  await receiver.close();
});

const graph = (path: string) => `${simulator.url}/v26.0/${path}`;
const body = (text = 'Hello {{1}}', example: unknown = { body_text: [['Ada']] }) => ({ type: 'BODY', text, example });
const definition = (name: string, components: unknown[] = [body()], language = 'en_US') => ({ name, language, category: 'UTILITY', components });
const create = (def: unknown) => request(graph(`${WABA}/message_templates`), 'POST', def);
const review = (settings: unknown) => request(`${simulator.url}/_simulate/template-review`, 'POST', settings, null);
const templateUpdates = () =>
  receiver.received.flatMap((w) =>
    w.body.entry.flatMap((e) => e.changes.filter((c) => c.field === 'message_template_status_update').map((c) => c.value as any)),
  );

/** Every listed template, following `paging.next` (the simulator lists five a page). */
async function listed(): Promise<any[]> {
  const all: any[] = [];
  for (let url: string | undefined = graph(`${WABA}/message_templates`); url; ) {
    const page: { body: { data: any[]; paging?: { next?: string } } } = await request(url, 'GET');
    all.push(...page.body.data);
    url = page.body.paging?.next;
  }
  return all;
}

async function upload(bytes: Buffer, type = 'image/png', headers: Record<string, string> = { Authorization: `OAuth ${TOKEN}`, file_offset: '0' }) {
  const session = await request(graph(`${APP}/uploads?file_length=${bytes.length}&file_type=${type}`), 'POST');
  const response = await fetch(graph(session.body.id), { method: 'POST', headers, body: bytes });
  return { session: session.body, status: response.status, body: (await response.json()) as any };
}

describe('creating templates', () => {
  it('answers { id, status: PENDING, category } and lists the template', async () => {
    const reply = await create(definition('sim_created'));
    expect(reply).toEqual({ status: 200, body: { id: expect.stringMatching(/^\d{16}$/), status: 'PENDING', category: 'UTILITY' } });
    expect(await listed()).toContainEqual(expect.objectContaining({ id: reply.body.id, name: 'sim_created', status: 'PENDING' }));
  });

  it('refuses the same name and language with 2388024 and the platform’s words', async () => {
    await create(definition('sim_twice'));
    const again = await create(definition('sim_twice'));
    expect(again.status).toBe(400);
    expect(again.body.error).toMatchObject({
      code: 100,
      error_subcode: 2388024,
      error_user_title: 'Message template already exists',
      error_user_msg: expect.stringContaining('en_US'),
    });
    expect((await create(definition('sim_twice', [body()], 'es_ES'))).status).toBe(200);
  });

  it('validates as the platform does: examples, lengths, media handles', async () => {
    expect((await create(definition('sim_no_example', [body('Hi {{1}}', null)]))).body.error.error_user_title).toBe('Invalid template');
    expect((await create(definition('sim_long', [body('x'.repeat(1025), null)]))).body.error.error_subcode).toBe(2388040);
    const header = { type: 'HEADER', format: 'IMAGE', example: { header_handle: ['4::made-up'] } };
    expect((await create(definition('sim_handle', [header, body()]))).body.error.error_subcode).toBe(2388047);
    expect((await create({ ...definition('Bad Name') })).body.error.code).toBe(100);
  });
});

describe('resumable upload', () => {
  it('opens a session and answers a handle a media header can name', async () => {
    const { session, status, body: answer } = await upload(Buffer.from('fake png'));
    expect(session.id).toMatch(/^upload:/);
    expect(status).toBe(200);
    expect(answer.h).toMatch(/^4::/);
    const header = { type: 'HEADER', format: 'IMAGE', example: { header_handle: [answer.h] } };
    expect((await create(definition('sim_media', [header, body()]))).status).toBe(200);
  });

  it('refuses a wrong token, and an offset that is not where the session stands', async () => {
    expect((await upload(Buffer.from('x'), 'image/png', { Authorization: 'OAuth wrong', file_offset: '0' })).body.error.code).toBe(190);
    expect((await upload(Buffer.from('x'), 'image/png', { Authorization: `OAuth ${TOKEN}`, file_offset: '5' })).body.error.code).toBe(100);
    expect((await request(graph(`${APP}/uploads?file_length=3&file_type=text/plain`), 'POST')).body.error.code).toBe(100);
  });
});

describe('editing and deleting', () => {
  it('refuses edits in review, a second edit of an approved template within a day, and its category', async () => {
    const { id } = (await create(definition('sim_edit'))).body;
    expect((await request(graph(id), 'POST', { components: [body('Hi {{1}}!')] })).body.error.error_user_title).toBe('Message template cannot be edited');
    await request(`${simulator.url}/_simulate/template-status`, 'POST', { waba_id: WABA, name: 'sim_edit', language: 'en_US', event: 'APPROVED' }, null);
    expect((await request(graph(id), 'POST', { components: [body()], category: 'MARKETING' })).body.error.error_user_title).toBe('Category cannot be changed');
    expect((await request(graph(id), 'POST', { components: [body('Hi {{1}}!')] })).body).toEqual({ success: true });
    await request(`${simulator.url}/_simulate/template-status`, 'POST', { waba_id: WABA, name: 'sim_edit', language: 'en_US', event: 'APPROVED' }, null);
    const again = await request(graph(id), 'POST', { components: [body('Hi {{1}}!!')] });
    expect(again.body.error.error_user_msg).toMatch(/once in 24 hours/);
  });

  it('deletes by name and id (one language) or by name (all), and holds the name back (2388023)', async () => {
    const en = (await create(definition('sim_gone'))).body.id;
    await create(definition('sim_gone', [body()], 'de_DE'));
    await create(definition('sim_gone', [body()], 'fr_FR'));
    expect((await request(graph(`${WABA}/message_templates?name=sim_gone&hsm_id=${en}`), 'DELETE')).body).toEqual({ success: true });
    expect((await request(graph(`${WABA}/message_templates?name=sim_gone`), 'DELETE')).body).toEqual({ success: true });
    expect((await listed()).filter((t: { name: string }) => t.name === 'sim_gone')).toEqual([]);
    expect((await create(definition('sim_gone'))).body.error.error_subcode).toBe(2388023);
    expect((await request(graph(`${WABA}/message_templates?name=sim_gone`), 'DELETE')).body.error.code).toBe(100);
  });
});

describe('review', () => {
  it('approves after the configured delay and pushes the status update with the template’s id', async () => {
    await review({ delay_ms: 50, outcome: 'APPROVED' });
    try {
      const { id } = (await create(definition('sim_reviewed'))).body;
      await receiver.waitFor(() => templateUpdates().some((u) => u.message_template_name === 'sim_reviewed'));
      expect(templateUpdates().find((u) => u.message_template_name === 'sim_reviewed')).toEqual({
        event: 'APPROVED',
        message_template_id: Number(id),
        message_template_name: 'sim_reviewed',
        message_template_language: 'en_US',
        reason: 'NONE',
      });
    } finally {
      await review({ delay_ms: null });
    }
  });

  it('decides on request for created templates too, rejecting with a reason', async () => {
    await create(definition('sim_on_request'));
    const reply = await request(
      `${simulator.url}/_simulate/template-status`,
      'POST',
      { waba_id: WABA, name: 'sim_on_request', language: 'en_US', event: 'REJECTED', reason: 'TAG_CONTENT_MISMATCH' },
      null,
    );
    expect(reply.body).toMatchObject({ ok: true, delivered_status: 200 });
    expect(templateUpdates().find((u) => u.message_template_name === 'sim_on_request')).toMatchObject({ event: 'REJECTED', reason: 'TAG_CONTENT_MISMATCH' });
    expect((await listed()).find((t: { name: string }) => t.name === 'sim_on_request').status).toBe('REJECTED');
  });
});
