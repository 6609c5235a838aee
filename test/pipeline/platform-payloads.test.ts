import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { handler as processPlatformWebhook } from '#functions/platform-webhooks/process-worker';
import { useTestApi, type TestWorkspace } from '../support/api';
import { inboundQueueEvent, postPlatformWebhook } from '../support/platform-webhook';

/**
 * The platform's documented webhook payloads and well-used libraries' captured ones
 * (test/fixtures/platform-webhooks, every file's source in docs/platform-payloads.md), replayed
 * as the platform posts them. Each one goes to a workspace of its own, its number and business
 * account written into it, because the sources reuse message ids across examples.
 */
const api = useTestApi({ runtime: true });
const FIXTURES = join(__dirname, '../fixtures/platform-webhooks');
const webhooks = readdirSync(FIXTURES)
  .filter((name) => name.endsWith('.json') && name !== 'media-object.json')
  .sort();

type Json = Record<string, any>;
const load = (name: string): Json => JSON.parse(readFileSync(join(FIXTURES, name), 'utf8'));

/** The fixture as the platform would post it to this workspace: its number and business account in place of the source's. */
function addressedTo(payload: Json, ws: TestWorkspace): Json {
  const copy = structuredClone(payload);
  for (const entry of copy.entry ?? []) {
    entry.id = ws.wabaId;
    for (const change of entry.changes ?? []) if (change.value?.metadata) change.value.metadata.phone_number_id = ws.phoneNumberId;
  }
  return copy;
}

/** The customer messages of a payload, which must each be stored: not the platform's system notices, edits or deletions. */
const customerMessages = (payload: Json): Json[] =>
  (payload.entry ?? [])
    .flatMap((entry: Json) => entry.changes ?? [])
    .flatMap((change: Json) => change.value?.messages ?? [])
    .filter((m: Json) => m.id && (m.from || m.from_user_id) && !['system', 'edit', 'revoke'].includes(m.type));

it('has the documented payloads to replay', () => {
  expect(webhooks.length).toBeGreaterThanOrEqual(60);
});

describe.each(webhooks)('%s', (name) => {
  it('is accepted (200), processed without a failure, and each customer message in it is stored', async () => {
    const ws = await api.workspaceWithTemplates();
    const payload = addressedTo(load(name), ws);
    expect(await postPlatformWebhook(api.baseUrl, payload)).toBe(200);
    // The worker itself, on the same payload: no failure to retry, so no webhook is ever dead-lettered.
    expect(await processPlatformWebhook(inboundQueueEvent(payload))).toEqual({ batchItemFailures: [] });

    const wanted = customerMessages(payload);
    const list = (await api.call('GET', '/api/v1/messages?direction=inbound&pageSize=100', { key: ws.key })).body.data as { id: string }[];
    const stored = await Promise.all(list.map(async (m) => (await api.call('GET', `/api/v1/messages/${m.id}`, { key: ws.key })).body.data));
    for (const message of wanted) {
      const found = stored.find((m) => m.provider_message_id === message.id);
      expect([message.id, found]).toEqual([message.id, expect.objectContaining({ direction: 'inbound', status: 'received', content: expect.any(String) })]);
      // A type the service knows keeps its name; anything else is `unsupported`, never lost.
      expect([message.type, 'unsupported']).toContain(found.message_type);
    }
  });
});
