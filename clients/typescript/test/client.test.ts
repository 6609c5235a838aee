import { createMessagingClient, IDEMPOTENT_OPERATIONS, verifyWebhook, WebhookVerificationError } from '../src/index';
import document from '../../../docs/openapi.json';
import { runAdmin } from '../../../test/support/admin';
import { useLocalStack } from '../../../test/support/local-stack';
import { startReceiver } from '../../../test/support/receiver';

/** The client against `npm start`'s program (one stack for the suite), as a developer would use it. */

const { local } = useLocalStack();

/** The operator's admin command against this suite's stack, its JSON answer. */
async function admin(...args: string[]): Promise<Record<string, unknown>> {
  const { code, stdout, stderr } = await runAdmin(local().dir, [...args, '--json']);
  if (code !== 0) throw new Error(`admin ${args.join(' ')}: ${stderr}`);
  return JSON.parse(stdout) as Record<string, unknown>;
}

const demoClient = () => createMessagingClient({ baseUrl: local().stack.base_url, apiKey: local().credentials.api_key });

describe('the TypeScript client', () => {
  it('sends the key: typed data with it, a typed 401 without a valid one', async () => {
    const { data } = await demoClient().GET('/api/v1/templates');
    expect(data?.data.map((template) => template.name)).toContain('hello_world');
    const refused = await createMessagingClient({ baseUrl: local().stack.base_url, apiKey: 'sk_live_not-a-key-of-anyone-at-all-000000' }).GET(
      '/api/v1/templates',
    );
    expect(refused.response.status).toBe(401);
    expect(refused.error?.error.code).toBe('unauthorized');
  });

  it('retries a 429 no sooner than its Retry-After, and the send keeps its Idempotency-Key across the retry', async () => {
    // A workspace of its own, allowed one request per second (two in a second's burst) before it makes any.
    const limited = await admin('workspace', 'create', '--name', 'Rate limited', '--plan', 'starter');
    await admin('workspace', 'set-rate-limit', '--id', String(limited.workspace_id), '--rps', '1');
    const attempts: { key: string | null; status: number; retryAfter: string | null; at: number }[] = [];
    const client = createMessagingClient({
      baseUrl: local().stack.base_url,
      apiKey: String(limited.api_key),
      retry: { maxRetries: 8 },
      fetch: async (request) => {
        const response = await fetch(request);
        attempts.push({
          key: request.headers.get('Idempotency-Key'),
          status: response.status,
          retryAfter: response.headers.get('Retry-After'),
          at: Date.now(),
        });
        return response;
      },
    });

    const sends = await Promise.all(
      ['+14155551901', '+14155551902', '+14155551903', '+14155551904', '+14155551905'].map((to) =>
        client.POST('/api/v1/messages', { body: { to, template: 'hello_world' } }),
      ),
    );
    expect(sends.map((send) => send.response.status)).toEqual([202, 202, 202, 202, 202]);
    expect(new Set(sends.map((send) => send.data?.data.message_id)).size).toBe(5);

    const refused = attempts.filter((attempt) => attempt.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    for (const refusal of refused) {
      expect(refusal.key).toEqual(expect.any(String));
      const next = attempts.find((attempt) => attempt.key === refusal.key && attempt.at > refusal.at)!;
      expect(next.at - refusal.at).toBeGreaterThanOrEqual(Number(refusal.retryAfter) * 1000 - 20);
    }
    expect(new Set(attempts.map((attempt) => attempt.key)).size).toBe(5);
  }, 60_000);

  it('keeps an Idempotency-Key the caller gives: the same send twice is replayed, not sent again', async () => {
    const client = demoClient();
    const send = () =>
      client.POST('/api/v1/messages', { params: { header: { 'Idempotency-Key': 'client-readme-1' } }, body: { to: '+14155551906', template: 'hello_world' } });
    const first = await send();
    const again = await send();
    expect(again.response.headers.get('Idempotent-Replayed')).toBe('true');
    expect(again.data?.data.message_id).toBe(first.data?.data.message_id);
  });

  it('knows which operations take an Idempotency-Key, as the document says', () => {
    const idempotent = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods as Record<string, { parameters?: { $ref?: string }[] }>)
        .filter(([, operation]) => operation.parameters?.some((parameter) => parameter.$ref === '#/components/parameters/IdempotencyKey'))
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect([...IDEMPOTENT_OPERATIONS].sort()).toEqual(idempotent.sort());
  });

  it('verifies a delivered webhook, typed by its event, and refuses one tampered with, stale or signed with another secret', async () => {
    const receiver = await startReceiver();
    try {
      const client = demoClient();
      const hook = (await client.POST('/api/v1/webhooks', { body: { url: receiver.url, events: ['ping'] } })).data!.data;
      expect((await client.POST('/api/v1/webhooks/{id}/test', { params: { path: { id: hook.id } } })).data?.data.success).toBe(true);
      const delivered = receiver.received.find((request) => request.headers['webhook-id'] && JSON.parse(request.body).type === 'ping')!;

      const event = verifyWebhook(hook.signing_secret, delivered.headers, delivered.body);
      expect(event.type).toBe('ping');
      if (event.type === 'ping') expect(event.data.webhook_id).toBe(hook.id);

      const tampered = delivered.body.replace(hook.id, '00000000-0000-4000-8000-000000000000');
      expect(() => verifyWebhook(hook.signing_secret, delivered.headers, tampered)).toThrow(WebhookVerificationError);
      const inTenMinutes = new Date(Date.now() + 10 * 60_000);
      expect(() => verifyWebhook(hook.signing_secret, delivered.headers, delivered.body, { now: inTenMinutes })).toThrow(/too far/);
      const otherSecret = `whsec_${Buffer.alloc(32, 1).toString('base64')}`;
      expect(() => verifyWebhook(otherSecret, delivered.headers, delivered.body)).toThrow(/no signature matches/);
    } finally {
      await receiver.stop();
    }
  });

  it('creates a WhatsApp group and reads it once the platform has created it, typed', async () => {
    const client = demoClient();
    const created = await client.POST('/api/v1/chat-groups', { body: { subject: 'Client test group', join_approval_mode: 'auto_approve' } });
    expect(created.response.status).toBe(202);
    const id = created.data!.data.id;
    expect(created.data!.data.status).toBe('creating');
    let group = created.data!.data;
    for (const started = Date.now(); group.status === 'creating' && Date.now() - started < 20_000; ) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      group = (await client.GET('/api/v1/chat-groups/{id}', { params: { path: { id } } })).data!.data;
    }
    expect(group.status).toBe('active');
    expect(group.invite_link).toMatch(/^https:\/\/chat\.whatsapp\.com\//);
    const participants = await client.GET('/api/v1/chat-groups/{id}/participants', { params: { path: { id } } });
    expect(participants.data?.data).toEqual([]);
    const listed = await client.GET('/api/v1/chat-groups', { params: { query: { pageSize: 100 } } });
    expect(listed.data?.data.map((g) => g.id)).toContain(id);
  });

  it('reads the call log and is told, typed, that a customer who never granted permission cannot be called', async () => {
    const client = demoClient();
    const log = await client.GET('/api/v1/calls', { params: { query: { pageSize: 10 } } });
    expect(log.response.status).toBe(200);
    expect(Array.isArray(log.data?.data)).toBe(true);
    const refused = await client.POST('/api/v1/calls', { body: { to: '+14155551907', sdp: 'v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\n' } });
    expect(refused.response.status).toBe(422);
    expect(refused.error?.error.code).toBe('call_permission_required');
  });
});
