import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { secretsManagerStore } from '#shared/platform/workspace-secrets';
import { platformSecrets } from '#shared/platform/secrets';

/**
 * Secrets Manager as the service calls it (shared/aws/secrets-manager.ts), against a scripted
 * service that answers as Secrets Manager's JSON protocol documents: `X-Amz-Target:
 * secretsmanager.<Operation>`, JSON 1.1 bodies, and `ResourceNotFoundException` for a secret that
 * does not exist (https://docs.aws.amazon.com/secretsmanager/latest/apireference/API_GetSecretValue.html).
 * The local stack never calls it (its secrets are files and the environment), so this is where
 * the calls' shapes are checked.
 */
const secrets = new Map<string, string>();
const seen: { target: string; headers: IncomingHttpHeaders; body: Record<string, unknown> }[] = [];
let server: Server;

const notFound = (response: import('node:http').ServerResponse) =>
  response
    .writeHead(400, { 'content-type': 'application/x-amz-json-1.1' })
    .end(JSON.stringify({ __type: 'ResourceNotFoundException', Message: "Secrets Manager can't find the specified secret." }));

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const target = String(request.headers['x-amz-target']);
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, string>;
      seen.push({ target, headers: request.headers, body });
      const ok = (answer: object) => response.writeHead(200, { 'content-type': 'application/x-amz-json-1.1' }).end(JSON.stringify(answer));
      switch (target) {
        case 'secretsmanager.GetSecretValue':
          return secrets.has(body.SecretId) ? ok({ Name: body.SecretId, SecretString: secrets.get(body.SecretId) }) : notFound(response);
        case 'secretsmanager.PutSecretValue':
          if (!secrets.has(body.SecretId)) return notFound(response);
          secrets.set(body.SecretId, body.SecretString);
          return ok({ Name: body.SecretId, VersionId: body.ClientRequestToken });
        case 'secretsmanager.CreateSecret':
          secrets.set(body.Name, body.SecretString);
          return ok({ Name: body.Name, VersionId: body.ClientRequestToken });
        case 'secretsmanager.DeleteSecret':
          if (!secrets.delete(body.SecretId)) return notFound(response);
          return ok({ Name: body.SecretId });
        default:
          return response.writeHead(400).end(JSON.stringify({ __type: 'InvalidRequestException', Message: target }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.env.SECRETS_MANAGER_ENDPOINT = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  delete process.env.SECRETS_MANAGER_ENDPOINT;
  delete process.env.PLATFORM_SECRET_ARN;
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('Secrets Manager', () => {
  test("a workspace's secret is created on its first write, replaced by the next, read back, and deleted for good", async () => {
    const store = secretsManagerStore('messaging-api');
    expect(await store.read('ws_1')).toBeUndefined();
    await store.write('ws_1', { access_token: 'first' });
    await store.write('ws_1', { access_token: 'second', pin: '123456' });
    expect(await store.read('ws_1')).toEqual({ access_token: 'second', pin: '123456' });
    await store.remove('ws_1');
    await store.remove('ws_1');
    expect(await store.read('ws_1')).toBeUndefined();

    expect(seen.map((call) => call.target)).toEqual([
      'secretsmanager.GetSecretValue',
      'secretsmanager.PutSecretValue',
      'secretsmanager.CreateSecret',
      'secretsmanager.PutSecretValue',
      'secretsmanager.GetSecretValue',
      'secretsmanager.DeleteSecret',
      'secretsmanager.DeleteSecret',
      'secretsmanager.GetSecretValue',
    ]);
    const create = seen.find((call) => call.target === 'secretsmanager.CreateSecret')!;
    expect(create.body).toMatchObject({ Name: 'messaging-api/workspaces/ws_1', Description: 'WhatsApp business token of workspace ws_1' });
    expect(create.body.ClientRequestToken).toMatch(/^[0-9a-f-]{36}$/);
    expect(seen.find((call) => call.target === 'secretsmanager.DeleteSecret')!.body).toEqual({
      SecretId: 'messaging-api/workspaces/ws_1',
      ForceDeleteWithoutRecovery: true,
    });
    for (const call of seen) {
      expect(call.headers['content-type']).toBe('application/x-amz-json-1.1');
      expect(call.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=local\/\d{8}\/[a-z0-9-]+\/secretsmanager\/aws4_request, /);
    }
  });

  test('the platform secret is read from its ARN', async () => {
    const arn = 'arn:aws:secretsmanager:us-east-1:000000000000:secret:messaging-api/platform-AbCdEf';
    secrets.set(arn, JSON.stringify({ app_secret: 's', verify_token: 'v', access_token: 't' }));
    process.env.PLATFORM_SECRET_ARN = arn;
    expect(await platformSecrets()).toEqual({ app_secret: 's', verify_token: 'v', access_token: 't' });
  });
});
