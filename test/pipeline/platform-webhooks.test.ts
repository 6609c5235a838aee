import { createHmac } from 'node:crypto';
import { TEST_PLATFORM, useTestApi, type TestWorkspace } from '../support/api';
import { eventually } from '../support/wait';

const api = useTestApi({ runtime: true });
let ws: TestWorkspace;
beforeAll(async () => {
  ws = await api.workspace();
});

const inboundPayload = (phoneNumberId: string, wamid: string, from = '14155550501') => ({
  object: 'whatsapp_business_account',
  entry: [
    {
      id: 'waba',
      changes: [
        {
          field: 'messages',
          value: {
            messaging_product: 'whatsapp',
            metadata: { display_phone_number: '15550001111', phone_number_id: phoneNumberId },
            contacts: [{ profile: { name: 'Ola' }, wa_id: from }],
            messages: [{ from, id: wamid, timestamp: String(Math.floor(Date.now() / 1000)), type: 'text', text: { body: 'hello' } }],
          },
        },
      ],
    },
  ],
});

const sign = (raw: string, secret = TEST_PLATFORM.app_secret) => `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;
const post = (raw: string, signature?: string) =>
  fetch(`${api.baseUrl}/webhooks/whatsapp`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(signature && { 'X-Hub-Signature-256': signature }) },
    body: raw,
  });
const inbound = async () => (await api.call('GET', '/api/v1/messages?direction=inbound', { key: ws.key })).body;

describe('POST /webhooks/whatsapp', () => {
  it.each([
    ['no signature', undefined],
    ['a signature with the wrong secret', 'wrong'],
    ['a malformed signature', 'sha1=abc'],
  ])('answers 401 to %s and processes nothing', async (_name, secret) => {
    const raw = JSON.stringify(inboundPayload(ws.phoneNumberId, `wamid.forged-${secret}`));
    const signature = secret === undefined ? undefined : secret === 'wrong' ? sign(raw, 'wrong') : secret;
    const reply = await post(raw, signature);
    expect(reply.status).toBe(401);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect((await inbound()).data).toEqual([]);
  });

  it('refuses a body altered after signing', async () => {
    const raw = JSON.stringify(inboundPayload(ws.phoneNumberId, 'wamid.tampered'));
    const reply = await post(raw.replace('hello', 'HELLO'), sign(raw));
    expect(reply.status).toBe(401);
  });

  it('stores a correctly signed message once, however often it is delivered', async () => {
    const raw = JSON.stringify(inboundPayload(ws.phoneNumberId, 'wamid.once', '14155550502'));
    for (let i = 0; i < 3; i++) expect((await post(raw, sign(raw))).status).toBe(200);
    await eventually(inbound, (body) => body.pagination.totalCount >= 1);
    // Longer than the counting's batching window (1 s): a second copy would be stored and counted by now.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const list = await inbound();
    expect(list.pagination.totalCount).toBe(1);
    expect(list.data).toHaveLength(1);
    expect(list.data[0]).toMatchObject({ phone_number: '14155550502', status: 'received' });
  });

  it('ignores webhooks for numbers of no workspace', async () => {
    const raw = JSON.stringify(inboundPayload('999999999', 'wamid.stranger'));
    expect((await post(raw, sign(raw))).status).toBe(200);
  });
});

describe('GET /webhooks/whatsapp', () => {
  const verify = (query: string) => fetch(`${api.baseUrl}/webhooks/whatsapp?${query}`);

  it('answers the challenge as plain text for the configured verify token', async () => {
    const reply = await verify(`hub.mode=subscribe&hub.verify_token=${TEST_PLATFORM.verify_token}&hub.challenge=1158201444`);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toContain('text/plain');
    expect(await reply.text()).toBe('1158201444');
  });

  it.each([
    ['a wrong token', `hub.mode=subscribe&hub.verify_token=nope&hub.challenge=1`],
    ['the token with a character more', `hub.mode=subscribe&hub.verify_token=${TEST_PLATFORM.verify_token}x&hub.challenge=1`],
    ['a prefix of the token', `hub.mode=subscribe&hub.verify_token=${TEST_PLATFORM.verify_token.slice(0, -1)}&hub.challenge=1`],
    ['a wrong mode', `hub.mode=unsubscribe&hub.verify_token=${TEST_PLATFORM.verify_token}&hub.challenge=1`],
    ['no challenge', `hub.mode=subscribe&hub.verify_token=${TEST_PLATFORM.verify_token}`],
  ])('answers 403 to %s', async (_name, query) => {
    expect((await verify(query)).status).toBe(403);
  });
});

describe('platform webhooks of any size the platform sends (up to 3 MB)', () => {
  it('accepts a 3 MB webhook, keeps it by reference, and processes every part of it', async () => {
    const now = String(Math.floor(Date.now() / 1000));
    // Thousands of status reports for messages of no workspace, and one customer message.
    const statuses = Array.from({ length: 3000 }, (_, i) => ({
      id: `wamid.unknown-${i}-${'x'.repeat(900)}`,
      status: 'delivered',
      timestamp: now,
      recipient_id: '14155550999',
    }));
    const payload = inboundPayload(ws.phoneNumberId, 'wamid.in-a-large-webhook', '14155550777');
    (payload.entry[0].changes[0].value as Record<string, unknown>).statuses = statuses;
    const raw = JSON.stringify(payload);
    expect(raw.length).toBeGreaterThan(2_500_000);
    expect((await post(raw, sign(raw))).status).toBe(200);
    const list = await eventually(
      () => api.call('GET', '/api/v1/messages?direction=inbound&phone=14155550777', { key: ws.key }),
      (r) => r.body.data.length === 1,
      30_000,
    );
    expect(list.body.data[0]).toMatchObject({ phone_number: '14155550777', status: 'received' });
  }, 60_000);
});
