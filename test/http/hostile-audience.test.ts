import { useTestApi, type TestWorkspace } from '../support/api';

const api = useTestApi();
let ws: TestWorkspace;
let groupId = '';
let contactId = '';
beforeAll(async () => {
  ws = await api.workspace();
  groupId = (await api.call('POST', '/api/v1/groups', { key: ws.key, body: { name: 'g' } })).body.data.id;
  contactId = (await api.call('POST', '/api/v1/contacts', { key: ws.key, body: { phone_number: '+14155550700', name: 'Keep', tags: ['keep'] } })).body.data.id;
});

const unknownId = '01900000-0000-7000-8000-000000000001';
const long = (n: number) => 'x'.repeat(n);

/** `{contact}` and `{group}` in paths and bodies stand for the records made in beforeAll. */
type Case = [name: string, method: string, path: string, body: unknown, status: number, code: string, fields?: string[]];
const cases: Case[] = [
  ['invalid phone', 'POST', '/api/v1/contacts', { phone_number: '12345' }, 400, 'validation_error', ['phone_number']],
  ['phone without country code', 'POST', '/api/v1/contacts', { phone_number: '(415) 555-0100' }, 400, 'validation_error', ['phone_number']],
  ['phone with letters', 'POST', '/api/v1/contacts', { phone_number: '+1 415 CALL NOW' }, 400, 'validation_error', ['phone_number']],
  ['phone of wrong type', 'POST', '/api/v1/contacts', { phone_number: 14155550100 }, 400, 'validation_error', ['phone_number']],
  ['missing phone', 'POST', '/api/v1/contacts', { name: 'x' }, 400, 'validation_error', ['phone_number']],
  ['invalid email', 'POST', '/api/v1/contacts', { phone_number: '+14155550100', email: 'not-mail' }, 400, 'validation_error', ['email']],
  ['name over 200', 'POST', '/api/v1/contacts', { phone_number: '+14155550100', name: long(201) }, 400, 'validation_error', ['name']],
  ['tag over 50', 'POST', '/api/v1/contacts', { phone_number: '+14155550100', tags: [long(51)] }, 400, 'validation_error', ['tags.0']],
  ['empty tag', 'POST', '/api/v1/contacts', { phone_number: '+14155550100', tags: ['ok', '  '] }, 400, 'validation_error', ['tags.1']],
  [
    '51 tags',
    'POST',
    '/api/v1/contacts',
    { phone_number: '+14155550100', tags: Array.from({ length: 51 }, (_, i) => `t${i}`) },
    400,
    'validation_error',
    ['tags'],
  ],
  ['tags not an array', 'POST', '/api/v1/contacts', { phone_number: '+14155550100', tags: 'vip' }, 400, 'validation_error', ['tags']],
  [
    'custom field of object type',
    'POST',
    '/api/v1/contacts',
    { phone_number: '+14155550100', custom_fields: { a: { b: 1 } } },
    400,
    'validation_error',
    ['custom_fields.a'],
  ],
  [
    'custom field number beyond the safe range',
    'POST',
    '/api/v1/contacts',
    { phone_number: '+14155550100', custom_fields: { big: 12345678901234567890 } },
    400,
    'validation_error',
    ['custom_fields.big'],
  ],
  ['custom_fields an array', 'POST', '/api/v1/contacts', { phone_number: '+14155550100', custom_fields: [1] }, 400, 'validation_error', ['custom_fields']],
  ['patch with invalid phone', 'PATCH', `/api/v1/contacts/{contact}`, { phone_number: 'abc' }, 400, 'validation_error', ['phone_number']],
  ['patch an unknown contact', 'PATCH', `/api/v1/contacts/${unknownId}`, { name: 'x' }, 404, 'not_found'],
  ['get an id with broken percent-encoding', 'GET', '/api/v1/contacts/%E0%A4%A', undefined, 400, 'validation_error', ['id']],
  ['get a malformed id', 'GET', '/api/v1/contacts/not-a-uuid', undefined, 400, 'validation_error', ['id']],
  ['list with pageSize 101', 'GET', '/api/v1/contacts?pageSize=101', undefined, 400, 'validation_error', ['pageSize']],
  ['list with page 0', 'GET', '/api/v1/contacts?page=0', undefined, 400, 'validation_error', ['page']],
  ['list with an empty search', 'GET', '/api/v1/contacts?search=', undefined, 400, 'validation_error', ['search']],
  ['group without name', 'POST', '/api/v1/groups', {}, 400, 'validation_error', ['name']],
  ['group name over 200', 'POST', '/api/v1/groups', { name: long(201) }, 400, 'validation_error', ['name']],
  ['empty contact_ids', 'POST', `/api/v1/groups/{group}/contacts`, { contact_ids: [] }, 400, 'validation_error', ['contact_ids']],
  [
    '1001 contact_ids',
    'POST',
    `/api/v1/groups/{group}/contacts`,
    { contact_ids: Array.from({ length: 1001 }, () => unknownId) },
    400,
    'validation_error',
    ['contact_ids'],
  ],
  ['malformed contact id', 'POST', `/api/v1/groups/{group}/contacts`, { contact_ids: ['{contact}', 'nope'] }, 400, 'validation_error', ['contact_ids.1']],
  ['add to an unknown group', 'POST', `/api/v1/groups/${unknownId}/contacts`, { contact_ids: ['{contact}'] }, 404, 'not_found'],
  ['remove from an unknown group', 'DELETE', `/api/v1/groups/${unknownId}/contacts`, { contact_ids: ['{contact}'] }, 404, 'not_found'],
  ['members of an unknown group', 'GET', `/api/v1/groups/${unknownId}/contacts`, undefined, 404, 'not_found'],
  ['delete an unknown group', 'DELETE', `/api/v1/groups/${unknownId}`, undefined, 404, 'not_found'],
];

describe('hostile contact and group inputs', () => {
  // A rest parameter keeps the arity at 0, so jest never mistakes a short row for a `done` callback.
  it.each(cases)('%s', async (...[, method, path, body, status, code, fields]: Case) => {
    const fill = (text: string) => text.replaceAll('{contact}', contactId).replaceAll('{group}', groupId);
    const reply = await api.call(method, fill(path), { key: ws.key, body: body === undefined ? undefined : JSON.parse(fill(JSON.stringify(body))) });
    expect(reply.status).toBe(status);
    expect(reply.body.error.code).toBe(code);
    if (fields) expect(reply.body.error.details.map((d: { field: string }) => d.field)).toEqual(fields);
  });

  it('wrote nothing half-way', async () => {
    const list = await api.call('GET', '/api/v1/contacts', { key: ws.key });
    expect(list.body.data.map((c: { id: string }) => c.id)).toEqual([contactId]);
    expect(list.body.pagination.totalCount).toBe(1);
    expect(list.body.data[0]).toMatchObject({ name: 'Keep', tags: ['keep'] });
    expect((await api.call('GET', `/api/v1/groups/${groupId}`, { key: ws.key })).body.data.contacts_count).toBe(0);
  });
});
