import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignatureV4 } from '@smithy/signature-v4';
import { AwsJsonClient, AwsServiceError, errorType } from '#shared/aws/json-protocol';
import { DYNAMODB_PROTOCOL } from '#shared/data/table/client';
import { Sha256 } from '#shared/signing/sha256';

/**
 * The service's client of AWS's JSON and REST-JSON protocols (shared/aws/json-protocol.ts): errors
 * classified for retries as the SDK's standard mode classifies them, refusals read as the SDK reads
 * them, and what is sent as it was signed: the SDK's signer, given the request as it arrived, signs
 * it the same.
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

interface Arrived {
  method?: string;
  url?: string;
  authorization?: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** The authorization the SDK's signer gives the request as it arrived, at the date and in the scope it was signed for; its payload hash recomputed from the body. */
async function sdkAuthorization({ method, url, headers, body }: Arrived): Promise<string> {
  const { authorization, 'content-length': _length, 'x-amz-content-sha256': _hash, ...sent } = headers;
  const [, accessKeyId, region, service] = /Credential=([^/]+)\/\d{8}\/([^/]+)\/([^/]+)\//.exec(authorization ?? '')!;
  const [path, search = ''] = url!.split('?');
  const stamp = String(sent['x-amz-date']);
  const signingDate = new Date(
    `${stamp.slice(0, 4)}-${stamp.slice(4, 6)}-${stamp.slice(6, 8)}T${stamp.slice(9, 11)}:${stamp.slice(11, 13)}:${stamp.slice(13, 15)}Z`,
  );
  const signer = new SignatureV4({ service, region, credentials: { accessKeyId, secretAccessKey: 'local' }, sha256: Sha256 });
  const signed = await signer.sign(
    {
      method: method!,
      protocol: 'http:',
      hostname: '127.0.0.1',
      path,
      query: Object.fromEntries(new URLSearchParams(search)),
      headers: sent as Record<string, string>,
      body,
    },
    { signingDate },
  );
  return signed.headers.authorization;
}

describe('a REST-JSON service (the Scheduler)', () => {
  let server: Server;
  let seen: Arrived = { headers: {}, body: '' };
  let answer: { status: number; headers: Record<string, string>; body: string };
  let client: AwsJsonClient;
  beforeAll(async () => {
    server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        seen = {
          method: request.method,
          url: request.url,
          authorization: request.headers.authorization,
          headers: request.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        };
        response.writeHead(answer.status, answer.headers).end(answer.body);
      });
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
    expect(seen.authorization).toBe(await sdkAuthorization(seen));
  });

  test('a call with a body, and a JSON-protocol call, arrive signed as the SDK signs them', async () => {
    answer = { status: 200, headers: { 'content-type': 'application/json' }, body: '{}' };
    await client.rest(
      'CreateSchedule',
      'POST',
      '/schedules/campaign-01J9-w1795900000',
      {},
      { ClientToken: 't', ScheduleExpression: 'at(2026-11-28T09:00:00)' },
    );
    expect(seen.body).toBe('{"ClientToken":"t","ScheduleExpression":"at(2026-11-28T09:00:00)"}');
    expect(seen.authorization).toBe(await sdkAuthorization(seen));
    const table = new AwsJsonClient(DYNAMODB_PROTOCOL, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    await table.call('GetItem', { TableName: 'messaging', Key: { PK: { S: 'WS#1 ü' }, SK: { S: 'KEY' } } });
    table.close();
    expect(seen.headers['x-amz-target']).toBe('DynamoDB_20120810.GetItem');
    expect(seen.authorization).toBe(await sdkAuthorization(seen));
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
