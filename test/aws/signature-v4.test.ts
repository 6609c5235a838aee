import { SignatureV4 } from '@smithy/signature-v4';
import { escapeUri, RequestSigner, type AwsCredentials, type SignableRequest } from '#shared/aws/signature-v4';
import { Sha256 } from '#shared/signing/sha256';

/**
 * The service's own Signature V4 signer against the AWS SDK's (@smithy/signature-v4, as its
 * clients sign these services' calls): for each request the functions send, every header the
 * SDK would send, the authorization's signature among them, must be the same.
 */

const region = 'eu-west-1';
const roleCredentials: AwsCredentials = {
  accessKeyId: 'ASIAEXAMPLEEXAMPLE00',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
  sessionToken: 'IQoJb3JpZ2luX2VjEXAMPLE//////////wEaCWV1LXdlc3QtMSJHMEUCIQ==',
};

async function sdkHeaders(service: string, credentials: AwsCredentials, request: SignableRequest, at: Date): Promise<Record<string, string>> {
  const signer = new SignatureV4({ service, region, credentials, sha256: Sha256 });
  const signed = await signer.sign(
    {
      method: request.method,
      protocol: 'https:',
      hostname: request.headers.host,
      path: request.path,
      query: request.query,
      headers: request.headers,
      body: request.payload,
    },
    { signingDate: at },
  );
  return signed.headers;
}

const dynamodbPut: SignableRequest = {
  method: 'POST',
  path: '/',
  query: {},
  headers: { host: 'dynamodb.eu-west-1.amazonaws.com', 'content-type': 'application/x-amz-json-1.0', 'x-amz-target': 'DynamoDB_20120810.PutItem' },
  payload: JSON.stringify({ TableName: 'messaging', Item: { PK: { S: 'WS#1' }, SK: { S: 'MSG#é ü 😀' } } }),
};

describe('RequestSigner signs as the AWS SDK does', () => {
  const at = new Date('2026-11-27T18:15:42.123Z');

  test('a JSON-protocol call with the role’s session token', async () => {
    const ours = new RequestSigner('dynamodb', region, roleCredentials).sign(dynamodbPut, at);
    expect(ours).toEqual(await sdkHeaders('dynamodb', roleCredentials, dynamodbPut, at));
    expect(ours.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=ASIAEXAMPLEEXAMPLE00\/20261127\/eu-west-1\/dynamodb\/aws4_request, SignedHeaders=content-type;host;x-amz-content-sha256;x-amz-date;x-amz-security-token;x-amz-target, Signature=[0-9a-f]{64}$/,
    );
  });

  test('without a session token (the local stack’s credentials), to a local endpoint with a port', async () => {
    const local = { accessKeyId: 'local', secretAccessKey: 'local' };
    const request = { ...dynamodbPut, headers: { ...dynamodbPut.headers, host: '127.0.0.1:8000' } };
    const ours = new RequestSigner('dynamodb', region, local).sign(request, at);
    expect(ours).toEqual(await sdkHeaders('dynamodb', local, request, at));
    expect(ours).not.toHaveProperty('x-amz-security-token');
  });

  test('a REST-JSON call: escaped path segments, a query with names that sort differently once joined, reserved characters, an empty body', async () => {
    const request: SignableRequest = {
      method: 'GET',
      path: `/schedules/${escapeUri('campaign:01J9 (retry)*ü')}/./x/../`,
      query: { NamePrefix: "c'amp aign!", Name: 'a/b~c', 'Name-2': 'ü', MaxResults: '10' },
      headers: { host: 'scheduler.eu-west-1.amazonaws.com' },
      payload: '',
    };
    const ours = new RequestSigner('scheduler', region, roleCredentials).sign(request, at);
    expect(ours).toEqual(await sdkHeaders('scheduler', roleCredentials, request, at));
  });

  const schedulerHost = { host: 'scheduler.eu-west-1.amazonaws.com' };
  test.each<[string, SignableRequest]>([
    [
      'ListSchedules, a page token and an empty prefix',
      { method: 'GET', path: '/schedules', query: { NamePrefix: '', NextToken: 'AbC+/d=e%2Bf==' }, headers: schedulerHost, payload: '' },
    ],
    [
      'CreateSchedule with its body',
      {
        method: 'POST',
        path: '/schedules/campaign-01J9ABCDEF-w1795900000',
        query: {},
        headers: { ...schedulerHost, 'content-type': 'application/json' },
        payload: JSON.stringify({ ClientToken: 't', ScheduleExpression: 'at(2026-11-28T09:00:00)', FlexibleTimeWindow: { Mode: 'OFF' } }),
      },
    ],
    [
      'DeleteSchedule with its client token',
      {
        method: 'DELETE',
        path: '/schedules/campaign-01J9ABCDEF',
        query: { clientToken: '5f0c6a4e-3b1d-4c8e-9f3a-0d2b7e6c1a99' },
        headers: schedulerHost,
        payload: '',
      },
    ],
    ['a host with its port', { method: 'GET', path: '/schedules', query: {}, headers: { host: 'scheduler.eu-west-1.amazonaws.com:443' }, payload: '' }],
  ])('the Scheduler’s calls as the service sends them: %s', async (_shape, request) => {
    const ours = new RequestSigner('scheduler', region, roleCredentials).sign(request, at);
    expect(ours).toEqual(await sdkHeaders('scheduler', roleCredentials, request, at));
  });

  test('header names in any case are signed in lower case, and the headers the SDK never signs (user-agent, a trace id, a proxy’s) are sent unsigned', async () => {
    const request = {
      ...dynamodbPut,
      headers: {
        host: dynamodbPut.headers.host,
        'Content-Type': 'application/x-amz-json-1.0',
        'X-Amz-Target': 'DynamoDB_20120810.GetItem',
        'user-agent': 'messaging-api',
        'x-amzn-trace-id': 'Root=1-5759e988',
        'proxy-authorization': 'p',
      },
    };
    const ours = new RequestSigner('dynamodb', region, roleCredentials).sign(request, at);
    expect(ours.authorization).toBe((await sdkHeaders('dynamodb', roleCredentials, request, at)).authorization);
    expect(ours.authorization).toContain('SignedHeaders=content-type;host;x-amz-content-sha256;x-amz-date;x-amz-security-token;x-amz-target,');
    expect(ours).toMatchObject({
      'content-type': 'application/x-amz-json-1.0',
      'user-agent': 'messaging-api',
      'x-amzn-trace-id': 'Root=1-5759e988',
      'proxy-authorization': 'p',
    });
  });

  test('credentials changed after the signer was made do not change what it signs with', async () => {
    const credentials = { ...roleCredentials };
    const signer = new RequestSigner('dynamodb', region, credentials);
    const first = signer.sign(dynamodbPut, at);
    credentials.secretAccessKey = 'rotated';
    credentials.accessKeyId = 'ASIAROTATEDROTATED00';
    expect(signer.sign(dynamodbPut, at)).toEqual(first);
    expect(first).toEqual(await sdkHeaders('dynamodb', roleCredentials, dynamodbPut, at));
  });

  test.each([' DynamoDB_20120810.PutItem \t\r\n x ', 'DynamoDB_20120810.PutItem  x', 'DynamoDB_20120810.PutItem\tx', 'DynamoDB_20120810.PutItem '])(
    'a header value with runs of spaces, tabs, line breaks or an edge space is signed as the SDK folds it: %j',
    async (value) => {
      const request = { ...dynamodbPut, headers: { ...dynamodbPut.headers, 'x-amz-target': value } };
      const ours = new RequestSigner('dynamodb', region, roleCredentials).sign(request, at);
      expect(ours).toEqual(await sdkHeaders('dynamodb', roleCredentials, request, at));
    },
  );

  test('the signing key follows the date: a signer used across midnight signs each day with its own key', async () => {
    const signer = new RequestSigner('sqs', region, roleCredentials);
    const request = { ...dynamodbPut, headers: { ...dynamodbPut.headers, host: 'sqs.eu-west-1.amazonaws.com', 'x-amz-target': 'AmazonSQS.SendMessage' } };
    for (const moment of ['2026-11-27T23:59:59.999Z', '2026-11-28T00:00:00.000Z', '2026-11-27T12:00:00.000Z']) {
      const when = new Date(moment);
      expect(signer.sign(request, when)).toEqual(await sdkHeaders('sqs', roleCredentials, request, when));
    }
  });

  test('the request handed in is left as it was', () => {
    const headers = { ...dynamodbPut.headers };
    new RequestSigner('dynamodb', region, roleCredentials).sign({ ...dynamodbPut, headers }, at);
    expect(headers).toEqual(dynamodbPut.headers);
  });
});
