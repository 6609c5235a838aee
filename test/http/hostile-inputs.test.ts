import { useTestApi, type TestWorkspace } from '../support/api';

const api = useTestApi();
let ws: TestWorkspace;
beforeAll(async () => {
  ws = await api.workspace();
});

interface Case {
  name: string;
  method: string;
  path: string;
  auth?: 'none' | string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
  status: number;
  code: string;
  fields?: string[];
}

const endpoints = [
  ['GET', '/api/v1/keys'],
  ['POST', '/api/v1/keys'],
  ['DELETE', '/api/v1/keys?id=00000000-0000-4000-8000-000000000000'],
  ['GET', '/api/v1/usage'],
  ['GET', '/api/v1/templates'],
  ['POST', '/api/v1/templates/sync'],
] as const;

const authCases: Case[] = endpoints.flatMap(([method, path]) => [
  { name: `${method} ${path} without Authorization`, method, path, auth: 'none', status: 401, code: 'unauthorized' },
  { name: `${method} ${path} with Basic auth`, method, path, auth: 'Basic dXNlcjpwYXNz', status: 401, code: 'unauthorized' },
  { name: `${method} ${path} with an empty Bearer`, method, path, auth: 'Bearer ', status: 401, code: 'unauthorized' },
  { name: `${method} ${path} with an unknown key`, method, path, auth: `Bearer sk_live_${'x'.repeat(43)}`, status: 401, code: 'unauthorized' },
  { name: `${method} ${path} with a huge key`, method, path, auth: `Bearer ${'k'.repeat(8000)}`, status: 401, code: 'unauthorized' },
]);

const bigName = 'n'.repeat(101);
const bodyCases: Case[] = [
  {
    name: 'broken JSON',
    method: 'POST',
    path: '/api/v1/keys',
    rawBody: '{"name":',
    headers: { 'Content-Type': 'application/json' },
    status: 400,
    code: 'invalid_json',
  },
  {
    name: 'text/plain body',
    method: 'POST',
    path: '/api/v1/keys',
    rawBody: '{"name":"a"}',
    headers: { 'Content-Type': 'text/plain' },
    status: 415,
    code: 'unsupported_media_type',
  },
  { name: 'body without Content-Type', method: 'POST', path: '/api/v1/keys', rawBody: '{"name":"a"}', status: 415, code: 'unsupported_media_type' },
  {
    name: 'application/jsonp is not JSON',
    method: 'POST',
    path: '/api/v1/keys',
    rawBody: '{"name":"a"}',
    headers: { 'Content-Type': 'application/jsonp' },
    status: 415,
    code: 'unsupported_media_type',
  },
  {
    name: 'body over 1 MiB',
    method: 'POST',
    path: '/api/v1/keys',
    body: { name: 'a', description: 'd'.repeat(1024 * 1024) },
    status: 413,
    code: 'payload_too_large',
  },
  { name: 'missing body', method: 'POST', path: '/api/v1/keys', status: 400, code: 'validation_error', fields: ['body'] },
  { name: 'JSON null', method: 'POST', path: '/api/v1/keys', body: null, status: 400, code: 'validation_error', fields: ['body'] },
  { name: 'JSON array', method: 'POST', path: '/api/v1/keys', body: [{ name: 'a' }], status: 400, code: 'validation_error', fields: ['body'] },
  { name: 'JSON string', method: 'POST', path: '/api/v1/keys', body: 'name', status: 400, code: 'validation_error', fields: ['body'] },
  { name: 'missing name', method: 'POST', path: '/api/v1/keys', body: { description: 'x' }, status: 400, code: 'validation_error', fields: ['name'] },
  { name: 'name of wrong type', method: 'POST', path: '/api/v1/keys', body: { name: 42 }, status: 400, code: 'validation_error', fields: ['name'] },
  { name: 'empty name', method: 'POST', path: '/api/v1/keys', body: { name: '   ' }, status: 400, code: 'validation_error', fields: ['name'] },
  { name: 'name over 100 chars', method: 'POST', path: '/api/v1/keys', body: { name: bigName }, status: 400, code: 'validation_error', fields: ['name'] },
  {
    name: 'two problems at once',
    method: 'POST',
    path: '/api/v1/keys',
    body: { name: [], description: 'd'.repeat(501) },
    status: 400,
    code: 'validation_error',
    fields: ['name', 'description'],
  },
  {
    name: 'description of wrong type',
    method: 'POST',
    path: '/api/v1/keys',
    body: { name: 'a', description: { x: 1 } },
    status: 400,
    code: 'validation_error',
    fields: ['description'],
  },
];

const queryCases: Case[] = [
  { name: 'revoke without id', method: 'DELETE', path: '/api/v1/keys', status: 400, code: 'validation_error', fields: ['id'] },
  { name: 'revoke with a non-UUID id', method: 'DELETE', path: '/api/v1/keys?id=..%2F..%2Fetc', status: 400, code: 'validation_error', fields: ['id'] },
  { name: 'revoke an unknown id', method: 'DELETE', path: '/api/v1/keys?id=00000000-0000-4000-8000-000000000000', status: 404, code: 'not_found' },
  {
    name: 'page beyond 1,000 (contract §22: the cursor goes deeper)',
    method: 'GET',
    path: '/api/v1/messages?page=1001',
    status: 400,
    code: 'validation_error',
    fields: ['page'],
  },
  { name: 'contacts page beyond 1,000', method: 'GET', path: '/api/v1/contacts?page=1001', status: 400, code: 'validation_error', fields: ['page'] },
  { name: 'usage days too large', method: 'GET', path: '/api/v1/usage?days=100000000000000000000', status: 400, code: 'validation_error', fields: ['days'] },
  { name: 'templates unknown status', method: 'GET', path: '/api/v1/templates?status=DELETED', status: 400, code: 'validation_error', fields: ['status'] },
];

const routeCases: Case[] = [
  { name: 'unknown path', method: 'GET', path: '/api/v1/nothing-here', status: 404, code: 'route_not_found' },
  { name: 'unknown method on a known path', method: 'PATCH', path: '/api/v1/keys', status: 404, code: 'route_not_found' },
  { name: 'unversioned path', method: 'GET', path: '/keys', status: 404, code: 'route_not_found' },
  { name: 'root', method: 'GET', path: '/', status: 404, code: 'route_not_found' },
  { name: 'path with encoded junk', method: 'GET', path: '/api/v1/%00%ff', status: 404, code: 'route_not_found' },
];

describe.each([
  ['authentication', authCases],
  ['bodies', bodyCases],
  ['query strings', queryCases],
  ['routes', routeCases],
])('hostile %s', (_group, cases) => {
  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const headers: Record<string, string> = { ...c.headers };
    if (c.auth !== 'none') headers.Authorization = c.auth ?? `Bearer ${ws.key}`;
    const reply = await api.call(c.method, c.path, { body: c.body, rawBody: c.rawBody, headers });
    expect(reply.status).toBe(c.status);
    expect(reply.body).toEqual({
      success: false,
      error: expect.objectContaining({ code: c.code, message: expect.any(String) }),
      request_id: reply.headers.get('x-request-id'),
    });
    if (c.fields) expect(reply.body.error.details.map((d: { field: string }) => d.field)).toEqual(c.fields);
  });
});

describe('lenient where the contract says so', () => {
  it('accepts a lower-case bearer scheme and a charset on the media type', async () => {
    const reply = await api.call('POST', '/api/v1/keys', {
      rawBody: JSON.stringify({ name: 'charset' }),
      headers: { Authorization: `bearer ${ws.key}`, 'Content-Type': 'application/json; charset=utf-8' },
    });
    expect(reply.status).toBe(201);
  });

  it('ignores a client-supplied workspace id', async () => {
    const other = await api.workspace();
    const reply = await api.call('POST', '/api/v1/keys?workspace_id=' + other.id, {
      key: ws.key,
      body: { name: 'spoof', workspace_id: other.id },
      headers: { 'X-Workspace-Id': other.id },
    });
    expect(reply.status).toBe(201);
    const otherKeys = await api.call('GET', '/api/v1/keys', { key: other.key });
    expect(otherKeys.body.data.map((k: { name: string }) => k.name)).not.toContain('spoof');
  });

  it('answers /health without a key', async () => {
    const reply = await api.call('GET', '/health');
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ success: true, data: { status: 'ok' } });
  });
});
