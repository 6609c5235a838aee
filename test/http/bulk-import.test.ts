import { useTestApi } from '../support/api';

const api = useTestApi();

describe('POST /api/v1/contacts/bulk', () => {
  it('imports valid items, reports invalid and duplicate ones by index, and updates existing contacts', async () => {
    const ws = await api.workspace();
    const existing = (await api.call('POST', '/api/v1/contacts', { key: ws.key, body: { phone_number: '+14155550500', name: 'Old' } })).body.data;
    const reply = await api.call('POST', '/api/v1/contacts/bulk', {
      key: ws.key,
      body: {
        contacts: [
          { phone: '+1 415 555 0501', name: 'New One', tags: ['import'] },
          { phone: 'not a phone', name: 'Bad' },
          { phone_number: '14155550500', name: 'Old Renamed' },
          { phone: '1 (415) 555-0501', name: 'Duplicate' },
          { name: 'No phone' },
          { phone: '+14155550502', email: 'broken' },
          'not an object',
          { phone: '+14155550503', custom_fields: { a: 1 } },
          { phone: '+14155550504', custom_fields: { huge: 12345678901234567890 } },
        ],
      },
    });
    expect(reply.status).toBe(200);
    expect(reply.body.data).toMatchObject({ total_submitted: 9, processed_count: 3, failed_count: 6 });
    expect(reply.body.data.contacts).toEqual([
      { id: expect.any(String), name: 'New One', phone_number: '14155550501', created: true },
      { id: existing.id, name: 'Old Renamed', phone_number: '14155550500', created: false },
      { id: expect.any(String), name: null, phone_number: '14155550503', created: true },
    ]);
    expect(reply.body.data.errors.map((e: { index: number; code: string }) => [e.index, e.code])).toEqual([
      [1, 'validation_error'],
      [3, 'duplicate_in_request'],
      [4, 'validation_error'],
      [5, 'validation_error'],
      [6, 'validation_error'],
      [8, 'validation_error'],
    ]);
    expect(reply.body.data.errors[1]).toEqual({ index: 3, phone: '14155550501', code: 'duplicate_in_request', message: expect.any(String) });
    expect(reply.body.data.errors[0]).toEqual({ index: 1, phone: 'not a phone', code: 'validation_error', message: expect.stringContaining('phone') });

    const list = await api.call('GET', '/api/v1/contacts', { key: ws.key });
    expect(list.body.pagination.totalCount).toBe(3);
    expect((await api.call('GET', '/api/v1/contacts?tag=import', { key: ws.key })).body.pagination.totalCount).toBe(1);
  });

  it('imports 500 contacts in one request with exact counts', async () => {
    const ws = await api.workspace();
    const contacts = Array.from({ length: 500 }, (_, i) => ({
      phone: `+1415555${String(1000 + i).padStart(4, '0')}`,
      name: `Bulk ${i}`,
      tags: i % 2 ? ['odd'] : [],
    }));
    const reply = await api.call('POST', '/api/v1/contacts/bulk', { key: ws.key, body: { contacts } });
    expect(reply.status).toBe(200);
    expect(reply.body.data).toMatchObject({ total_submitted: 500, processed_count: 500, failed_count: 0, errors: [] });
    expect(reply.body.data.contacts.every((c: { created: boolean }) => c.created)).toBe(true);
    expect((await api.call('GET', '/api/v1/contacts?pageSize=1', { key: ws.key })).body.pagination.totalCount).toBe(500);
    expect((await api.call('GET', '/api/v1/contacts?tag=odd&pageSize=1', { key: ws.key })).body.pagination.totalCount).toBe(250);

    const again = await api.call('POST', '/api/v1/contacts/bulk', { key: ws.key, body: { contacts: contacts.slice(0, 10) } });
    expect(again.body.data.contacts.every((c: { created: boolean }) => !c.created)).toBe(true);
    expect((await api.call('GET', '/api/v1/contacts?pageSize=1', { key: ws.key })).body.pagination.totalCount).toBe(500);
  });

  it.each([
    ['no contacts', { contacts: [] }],
    ['501 contacts', { contacts: Array.from({ length: 501 }, (_, i) => ({ phone: `+1415555${String(i).padStart(4, '0')}` })) }],
    ['contacts not an array', { contacts: { phone: '+14155550101' } }],
    ['missing contacts', {}],
  ])('rejects %s as a whole, writing nothing', async (_name, body) => {
    const ws = await api.workspace();
    const reply = await api.call('POST', '/api/v1/contacts/bulk', { key: ws.key, body });
    expect(reply.status).toBe(400);
    expect(reply.body.error.code).toBe('validation_error');
    expect(reply.body.error.details[0].field).toBe('contacts');
    expect((await api.call('GET', '/api/v1/contacts', { key: ws.key })).body.pagination.totalCount).toBe(0);
  });
});
