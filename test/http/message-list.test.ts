import { applyStatus } from '#shared/domain/messages/status';
import { useTestApi, type TestWorkspace } from '../support/api';
import { eventually } from '../support/wait';

// No asynchronous runtime here: messages stay `queued`, so the list is stable; the table stream counts them.
const api = useTestApi({ counting: true });
let ws: TestWorkspace;
const ids: string[] = [];

beforeAll(async () => {
  ws = await api.workspace();
  await api.call('POST', '/api/v1/templates/sync', { key: ws.key });
  for (let i = 0; i < 23; i++) {
    const to = i % 3 === 0 ? '+14155550601' : `+1415555070${i % 10}`;
    ids.push((await api.call('POST', '/api/v1/messages', { key: ws.key, body: { to, template: 'welcome', variables: [`N${i}`] } })).body.data.message_id);
  }
  // Totals trail the messages by the stream's delay (docs/messaging.md §6).
  await eventually(
    () => list('pageSize=1'),
    (page) => page.pagination.totalCount === 23,
  );
});

const list = async (query: string) => (await api.call('GET', `/api/v1/messages?${query}`, { key: ws.key })).body;

describe('GET /api/v1/messages', () => {
  it('lists newest first in offset pages with exact totals', async () => {
    const first = await list('pageSize=10');
    expect(first.data.map((m: { id: string }) => m.id)).toEqual([...ids].reverse().slice(0, 10));
    expect(first.pagination).toMatchObject({ page: 1, pageSize: 10, totalCount: 23, hasMore: true });
    expect(first.data[0]).toEqual({
      id: ids[22],
      phone_number: '14155550702',
      business_number_id: ws.phoneNumberId,
      status: 'queued',
      direction: 'outbound',
      message_type: 'template',
      template_name: 'welcome',
      campaign_id: null,
      pricing: null,
      cost: null,
      created_at: expect.any(String),
    });
    const third = await list('pageSize=10&page=3');
    expect(third.data.map((m: { id: string }) => m.id)).toEqual([...ids].reverse().slice(20));
    expect(third.pagination).toMatchObject({ page: 3, totalCount: 23, hasMore: false, nextCursor: null });
    // Past the end: no message read, the total all the same (its counts read on their own).
    const past = await list('pageSize=10&page=4');
    expect(past.data).toEqual([]);
    expect(past.pagination).toMatchObject({ page: 4, totalCount: 23, hasMore: false });
  });

  it('pages with an opaque cursor through every message exactly once', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: any = await list(`pageSize=7${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...page.data.map((m: { id: string }) => m.id));
      cursor = page.pagination.nextCursor;
    } while (cursor);
    expect(seen).toEqual([...ids].reverse());
  });

  it('filters by phone in any accepted format, status and direction, with exact counts', async () => {
    const byPhone = await list('phone=%2B1%20(415)%20555-0601');
    expect(byPhone.pagination.totalCount).toBe(8);
    expect(byPhone.data.every((m: { phone_number: string }) => m.phone_number === '14155550601')).toBe(true);
    expect((await list('status=queued')).pagination.totalCount).toBe(23);
    expect((await list('status=read')).pagination.totalCount).toBe(0);
    expect((await list('status=read')).data).toEqual([]);
    expect((await list('direction=inbound')).pagination.totalCount).toBe(0);
    expect((await list('direction=outbound&status=queued&phone=14155550601')).pagination.totalCount).toBe(8);
  });

  it('returns a single message with its detail fields', async () => {
    const one = await api.call('GET', `/api/v1/messages/${ids[0]}`, { key: ws.key });
    expect(one.body.data).toEqual({
      id: ids[0],
      phone_number: '14155550601',
      business_number_id: ws.phoneNumberId,
      status: 'queued',
      direction: 'outbound',
      message_type: 'template',
      template_name: 'welcome',
      language: 'en_US',
      content: 'Welcome to our service, N0!',
      template_parameters: { header: null, variables: ['N0'], buttons: [] },
      rendered: { header: null, body: 'Welcome to our service, N0!', footer: null, buttons: [] },
      media: null,
      location: null,
      interactive: null,
      button: null,
      reaction: null,
      contacts: null,
      context: null,
      campaign_id: null,
      provider_message_id: null,
      error: null,
      pricing: null,
      cost: null,
      metadata: { sent_at: null, delivered_at: null, read_at: null, failed_at: null, played_at: null, edited_at: null, revoked_at: null, send_attempts: 0 },
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const other = await api.workspace();
    expect((await api.call('GET', `/api/v1/messages/${ids[0]}`, { key: other.key })).status).toBe(404);
  });
});

describe('hostile message inputs', () => {
  const cases: [string, unknown, string[]][] = [
    ['both template and text', { to: '+14155550601', template: 'welcome', text: 'x' }, ['template']],
    ['neither template nor text', { to: '+14155550601' }, ['template']],
    ['invalid phone', { to: '555', template: 'hello_world' }, ['to']],
    ['missing to', { template: 'hello_world' }, ['to']],
    ['text over 4096', { to: '+14155550601', text: 'x'.repeat(4097) }, ['text']],
    ['empty text', { to: '+14155550601', text: '' }, ['text']],
    ['template of wrong type', { to: '+14155550601', template: 42 }, ['template']],
    ['template object without name', { to: '+14155550601', template: { language: 'en_US' } }, ['template']],
    ['variables of wrong shape', { to: '+14155550601', template: 'welcome', variables: 'Ada' }, ['variables']],
    ['variable of wrong type', { to: '+14155550601', template: 'welcome', variables: [{ a: 1 }] }, ['variables']],
    ['variables with text', { to: '+14155550601', text: 'hi', variables: ['x'] }, ['variables']],
    ['bad language code', { to: '+14155550601', template: 'welcome', language: 'english please' }, ['language']],
  ];
  it.each(cases)('%s → 400 validation_error', async (_name, body, fields) => {
    const reply = await api.call('POST', '/api/v1/messages', { key: ws.key, body });
    expect(reply.status).toBe(400);
    expect(reply.body.error.code).toBe('validation_error');
    expect(reply.body.error.details.map((d: { field: string }) => d.field)).toEqual(fields);
  });

  it.each([
    ['pageSize=0', 'pageSize'],
    ['pageSize=101', 'pageSize'],
    ['page=-1', 'page'],
    ['status=sending', 'status'],
    ['direction=sideways', 'direction'],
    ['phone=12', 'phone'],
    ['campaign_id=nope', 'campaign_id'],
    ['cursor=not-a-cursor', 'cursor'],
  ])('GET ?%s → 400 on %s', async (query, field) => {
    const reply = await api.call('GET', `/api/v1/messages?${query}`, { key: ws.key });
    expect(reply.status).toBe(400);
    expect(reply.body.error.details.map((d: { field: string }) => d.field)).toEqual([field]);
  });
});

// `status` is not in the message indexes: it is checked on the messages read (docs/messaging.md §6).
describe('GET /api/v1/messages with statuses that have moved', () => {
  let mixed: TestWorkspace;
  const sent: string[] = [];
  const queued: string[] = [];

  beforeAll(async () => {
    mixed = await api.workspace();
    await api.call('POST', '/api/v1/templates/sync', { key: mixed.key });
    for (let i = 0; i < 12; i++) {
      const to = i % 2 === 0 ? '+14155550801' : '+14155550802';
      const id: string = (await api.call('POST', '/api/v1/messages', { key: mixed.key, body: { to, template: 'welcome', variables: [`M${i}`] } })).body.data
        .message_id;
      if (i % 3 === 0) {
        await applyStatus(mixed.id, id, { status: 'sent', at: '2026-01-01T00:00:01.000Z' });
        sent.push(id);
      } else {
        queued.push(id);
      }
    }
    // Counts trail the writes (docs/messaging.md §6): wait until both statuses' counts have settled.
    await eventually(
      () => mixedList('pageSize=1&status=sent'),
      (page) => page.pagination.totalCount === 4,
    );
    await eventually(
      () => mixedList('pageSize=1&status=queued'),
      (page) => page.pagination.totalCount === 8,
    );
  });

  const mixedList = async (query: string) => (await api.call('GET', `/api/v1/messages?${query}`, { key: mixed.key })).body;
  const idsOf = (page: { data: { id: string }[] }) => page.data.map((m) => m.id);

  it('shows each message with its current status', async () => {
    const page = await mixedList('pageSize=12');
    const statusOf = Object.fromEntries(page.data.map((m: { id: string; status: string }) => [m.id, m.status]));
    expect(sent.every((id) => statusOf[id] === 'sent')).toBe(true);
    expect(queued.every((id) => statusOf[id] === 'queued')).toBe(true);
  });

  it('pages one status by cursor, newest first, every match once, with its exact count', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: any = await mixedList(`status=sent&pageSize=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.pagination.totalCount).toBe(4);
      seen.push(...idsOf(page));
      cursor = page.pagination.nextCursor;
    } while (cursor);
    expect(seen).toEqual([...sent].reverse());
  });

  it('pages one status by offset', async () => {
    const second = await mixedList('status=queued&pageSize=3&page=2');
    expect(idsOf(second)).toEqual([...queued].reverse().slice(3, 6));
    expect(second.pagination).toMatchObject({ totalCount: 8, hasMore: true });
  });

  it("counts one status within one number's conversation", async () => {
    // Messages 0, 6 to …801 are sent; 3, 9 to …802 are sent.
    const sentToFirst = await mixedList('phone=14155550801&status=sent');
    expect(sentToFirst.pagination.totalCount).toBe(2);
    expect(idsOf(sentToFirst)).toEqual([sent[2], sent[0]]);
    expect((await mixedList('phone=14155550802&status=queued')).pagination.totalCount).toBe(4);
  });
});
