import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AwsJsonClient, AwsServiceError, errorType } from '#shared/aws/json-protocol';

/**
 * The service's client of AWS's JSON and REST-JSON protocols (shared/aws/json-protocol.ts): errors
 * classified for retries as the SDK's standard mode classifies them, refusals read as the SDK reads
 * them, and a REST call's query sent as it was signed.
 */
describe('errors, classified as the SDK classifies them', () => {
  const refusal = (name: string, status = 400) => new AwsServiceError(name, name, status, undefined, {});

  test.each([
    ['ProvisionedThroughputExceededException', 'THROTTLING'],
    ['ThrottlingException', 'THROTTLING'],
    ['TransactionInProgressException', 'THROTTLING'],
    ['RequestTimeoutException', 'TRANSIENT'],
    ['ConditionalCheckFailedException', 'OTHER'],
    ['ValidationException', 'OTHER'],
  ])('%s: %s', (name, type) => expect(errorType(refusal(name))).toBe(type));

  test('by status: 429 throttling, 500, 502, 503 and 504 transient, any other 5xx not retried', () => {
    expect(errorType(refusal('Unnamed', 429))).toBe('THROTTLING');
    for (const status of [500, 502, 503, 504]) expect(errorType(refusal('InternalServerError', status))).toBe('TRANSIENT');
    expect(errorType(refusal('NotImplemented', 501))).toBe('OTHER');
  });

  test('dropped and refused connections, time-outs, and either as the cause of another error, are transient', () => {
    expect(errorType(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }))).toBe('TRANSIENT');
    expect(errorType(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }))).toBe('TRANSIENT');
    expect(errorType(Object.assign(new Error('slow'), { name: 'TimeoutError' }))).toBe('TRANSIENT');
    expect(errorType(new Error('wrapped', { cause: Object.assign(new Error('reset'), { code: 'EPIPE' }) }))).toBe('TRANSIENT');
    expect(errorType(new Error('a bug'))).toBe('OTHER');
    expect(errorType(undefined)).toBe('OTHER');
  });
});

describe('a REST-JSON service (the Scheduler)', () => {
  let server: Server;
  let seen: { method?: string; url?: string; authorization?: string } = {};
  let answer: { status: number; headers: Record<string, string>; body: string };
  let client: AwsJsonClient;
  beforeAll(async () => {
    server = createServer((request, response) => {
      seen = { method: request.method, url: request.url, authorization: request.headers.authorization };
      request.resume();
      request.on('end', () => response.writeHead(answer.status, answer.headers).end(answer.body));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    client = new AwsJsonClient({ signingName: 'scheduler', targetPrefix: '', jsonVersion: '1.1', serviceId: 'Scheduler' }, endpoint);
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  test('a query is sent escaped as it is signed (RFC 3986), and parameters left undefined are left out', async () => {
    answer = { status: 200, headers: { 'content-type': 'application/json' }, body: '{"Schedules":[]}' };
    const page = await client.rest('ListSchedules', 'GET', '/schedules', { NamePrefix: "campaign-a b*(x)'!", NextToken: 'ab+/=', GroupName: undefined });
    expect(page).toEqual({ Schedules: [] });
    expect(seen.method).toBe('GET');
    expect(seen.url).toBe('/schedules?NamePrefix=campaign-a%20b%2A%28x%29%27%21&NextToken=ab%2B%2F%3D');
    expect(seen.authorization).toMatch(/Credential=local\/\d{8}\/[a-z0-9-]+\/scheduler\/aws4_request/);
  });

  test("a refusal is named from the header REST services send (`Name:…`), with the body's message", async () => {
    answer = {
      status: 409,
      headers: { 'content-type': 'application/json', 'x-amzn-errortype': 'ConflictException:http://internal.amazon.com/coral/com.amazonaws.chronos/' },
      body: '{"Message":"Schedule campaign-1 already exists."}',
    };
    const refused = await client.rest('CreateSchedule', 'POST', '/schedules/campaign-1', {}, { ClientToken: 't' }).catch((error: Error) => error);
    expect(refused).toBeInstanceOf(AwsServiceError);
    expect(refused).toMatchObject({
      name: 'ConflictException',
      message: 'Schedule campaign-1 already exists.',
      $fault: 'client',
      $metadata: { httpStatusCode: 409 },
    });
  });
});
