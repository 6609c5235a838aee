import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { ListSchedulesCommand, SchedulerClient } from '@aws-sdk/client-scheduler';
import { ScanCommand } from '#shared/data/table/commands';
import { awsClientConfig } from '#local/sdk-client-config';
import { db } from '#shared/data/table/client';
import { randomDigits } from '#local/random';
import { useTestApi } from '../support/api';
import { startReceiver } from '../support/receiver';
import { simulatorControl } from '../support/simulator';
import { eventually } from '../support/wait';

process.env.MEDIA_BACKOFF_SCALE = '0.001';
process.env.ERASURE_GRACE_SECONDS = '2';
/** Workspaces' own secrets, as the local stack keeps them (one JSON file each): the directory the test API gives the suite. */
const secretsDir = () => process.env.LOCAL_WORKSPACE_SECRETS_DIR!;

/** Erasing a workspace (contract §19), as the operator and the workspace's clients see it, and as the table and the bucket hold it. */
const api = useTestApi({ runtime: true, statusIntervalMs: 200 });
const simulator = simulatorControl(() => api.simulator.url);

const admin = (method: string, path: string, body?: unknown) =>
  api.call(method, `/admin/v1${path}`, { key: api.operatorKey, ...(body !== undefined && { body }) });

const platformNumber = () => {
  const number = { phone_number_id: randomDigits(15), waba_id: randomDigits(15) };
  api.simulator.registerNumber(number.phone_number_id, number.waba_id);
  return number;
};

const open = async (name: string) => {
  const number = platformNumber();
  const reply = await admin('POST', '/workspaces', { name, plan: 'pro', ...number });
  expect(reply.status).toBe(201);
  const { workspace, key } = reply.body.data as { workspace: { id: string }; key: { api_key: string } };
  const call = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    api.call(method, path, { key: key.api_key, ...(body !== undefined && { body }), ...(headers && { headers }) });
  return { id: workspace.id, key: key.api_key, number, call };
};

/** Every item of the table that names the workspace or its number anywhere in its keys or attributes (lookup items included). */
async function itemsOf(...references: string[]): Promise<Record<string, unknown>[]> {
  const found: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db().send(new ScanCommand({ TableName: process.env.TABLE_NAME, ExclusiveStartKey: start, ConsistentRead: true }));
    for (const item of page.Items ?? []) {
      const text = JSON.stringify(item);
      if (references.some((reference) => text.includes(reference))) found.push(item);
    }
    start = page.LastEvaluatedKey;
  } while (start);
  return found;
}

async function mediaObjectsOf(workspaceId: string): Promise<number> {
  const s3 = new S3Client({ ...awsClientConfig(process.env.S3_ENDPOINT), forcePathStyle: true });
  try {
    const { KeyCount = 0 } = await s3.send(new ListObjectsV2Command({ Bucket: process.env.MEDIA_BUCKET, Prefix: `${workspaceId}/` }));
    return KeyCount;
  } finally {
    s3.destroy();
  }
}

async function schedulesOf(campaignId: string): Promise<string[]> {
  const scheduler = new SchedulerClient(awsClientConfig(process.env.SCHEDULER_ENDPOINT));
  try {
    return ((await scheduler.send(new ListSchedulesCommand({ NamePrefix: `campaign-${campaignId}` }))).Schedules ?? []).map((s) => s.Name!);
  } finally {
    scheduler.destroy();
  }
}

describe('DELETE /admin/v1/workspaces/{id}', () => {
  it('erases every item, media object and schedule of the workspace while its campaign runs and its webhooks retry; its number is free; another workspace is untouched', async () => {
    const erased = await open('Leaving');
    const other = await open('Staying');
    const receiver = await startReceiver();
    receiver.respond(() => 500);
    try {
      // The other workspace has data of its own.
      expect((await other.call('POST', '/api/v1/contacts', { phone_number: '+14155550100', name: 'Stays' })).status).toBe(201);

      // Keys, contacts with tags and search entries, a group, a failing webhook subscription.
      const second = await admin('POST', `/workspaces/${erased.id}/keys`, { name: 'Backend' });
      expect(second.status).toBe(201);
      const audience = Array.from({ length: 12 }, () => `1415559${randomDigits(4)}`);
      const contacts = [];
      for (const [i, phone] of audience.slice(0, 3).entries()) {
        const reply = await erased.call('POST', '/api/v1/contacts', {
          phone_number: `+${phone}`,
          name: `Customer ${i}`,
          email: `c${i}@example.com`,
          tags: ['vip'],
        });
        expect(reply.status).toBe(201);
        contacts.push(reply.body.data.id as string);
      }
      const group = await erased.call('POST', '/api/v1/groups', { name: 'Regulars' });
      expect((await erased.call('POST', `/api/v1/groups/${group.body.data.id}/contacts`, { contact_ids: contacts })).status).toBe(200);
      expect((await erased.call('POST', '/api/v1/webhooks', { url: receiver.url, events: ['*'] })).status).toBe(201);

      // A message sent with an idempotency key, and an inbound one with media, copied to the bucket.
      const sent = await erased.call(
        'POST',
        '/api/v1/messages',
        { to: audience[0], template: 'hello_world' },
        { 'Idempotency-Key': `erase-${randomDigits(6)}` },
      );
      expect(sent.status).toBe(202);
      await simulator.inbound({ phone_number_id: erased.number.phone_number_id, from: audience[1], type: 'image', image: { caption: 'Parcel' } });
      const [received] = await eventually(
        async () => (await erased.call('GET', '/api/v1/messages?direction=inbound')).body.data as { id: string }[],
        (list) => list.length === 1,
      );
      await eventually(
        async () => (await erased.call('GET', `/api/v1/messages/${received.id}`)).body.data,
        (message: { media: { url: string | null } }) => message.media.url !== null,
      );
      expect(await mediaObjectsOf(erased.id)).toBeGreaterThan(0);

      // A campaign scheduled for later (its schedule), and one running slowly (its number paced at 1 message a second).
      const later = await erased.call('POST', '/api/v1/campaigns', {
        name: 'Later',
        template_name: 'welcome',
        scheduled_at: new Date(Date.now() + 3600_000).toISOString(),
      });
      expect(
        (await erased.call('POST', `/api/v1/campaigns/${later.body.data.id}/launch`, { recipients: [{ phone: audience[2], variables: ['Ada'] }] })).status,
      ).toBe(202);
      expect(
        await eventually(
          () => schedulesOf(later.body.data.id),
          (names) => names.length === 1,
        ),
      ).toEqual([`campaign-${later.body.data.id}`]);
      expect((await admin('PATCH', `/numbers/${erased.number.phone_number_id}`, { throughput_mps: 1 })).status).toBe(200);
      const running = await erased.call('POST', '/api/v1/campaigns', { name: 'Running', template_name: 'welcome' });
      const recipients = audience.map((phone) => ({ phone, variables: ['Ada'] }));
      expect((await erased.call('POST', `/api/v1/campaigns/${running.body.data.id}/launch`, { recipients })).status).toBe(202);
      await eventually(
        () => simulator.sends(audience[3]).then(async () => (await Promise.all(audience.map((phone) => simulator.sends(phone)))).flat()),
        (sends) => sends.length >= 3,
      );
      // Its webhooks are failing and being retried.
      await eventually(
        async () => receiver.received.length,
        (n) => n > 0,
      );

      // Its own secret (as onboarding keeps it), and the other's.
      for (const { id } of [erased, other]) writeFileSync(join(secretsDir(), `${id}.json`), JSON.stringify({ access_token: `token-${id}` }));

      const before = await itemsOf(erased.id, erased.number.phone_number_id);
      expect(before.length).toBeGreaterThan(0);
      for (const prefix of [
        'API_KEY#',
        'PHONE_NUMBER#',
        `WS#${erased.id}#WAMID#`,
        `WS#${erased.id}#IDEMPOTENCY#`,
        `WS#${erased.id}#CONTACT#`,
        `WS#${erased.id}#MSG#`,
      ]) {
        expect(before.some((item) => String(item.PK).startsWith(prefix))).toBe(true);
      }
      const othersBefore = await itemsOf(other.id, other.number.phone_number_id);

      const deleting = await admin('DELETE', `/workspaces/${erased.id}`);
      expect(deleting.status).toBe(202);
      expect(deleting.body.data).toMatchObject({
        id: erased.id,
        status: 'deleting',
        numbers: [],
        erasure: { step: expect.any(String), items_deleted: expect.any(Number) },
      });
      expect((await admin('GET', `/workspaces/${erased.id}`)).body.data.status).toBe('deleting');
      // Its keys are refused from now on, the first as any other.
      for (const key of [erased.key, second.body.data.api_key]) {
        const refused = await api.call('GET', '/api/v1/contacts', { key });
        expect(refused.status).toBe(401);
        expect(refused.body.error.code).toBe('unauthorized');
      }
      // The operator may not change it meanwhile; asked again, the erasure goes on.
      expect((await admin('PATCH', `/workspaces/${erased.id}`, { plan: 'starter' })).status).toBe(409);
      expect((await admin('DELETE', `/workspaces/${erased.id}`)).status).toBe(202);
      // Inbound for its number while it is erased is dropped, not stored.
      await simulator.inbound({ phone_number_id: erased.number.phone_number_id, from: audience[4], text: 'Hello?' });

      await eventually(
        () => admin('GET', `/workspaces/${erased.id}`),
        (reply) => reply.status === 404,
        60_000,
      );
      const sendsAtEnd = (await Promise.all(audience.map((phone) => simulator.sends(phone)))).flat().length;
      const deliveriesAtEnd = receiver.received.length;
      // Past a webhook retry (5 s) and several of the campaign's send slots: nothing more went out.
      await new Promise((resolve) => setTimeout(resolve, 7000));
      expect((await Promise.all(audience.map((phone) => simulator.sends(phone)))).flat()).toHaveLength(sendsAtEnd);
      expect(receiver.received).toHaveLength(deliveriesAtEnd);
      expect(sendsAtEnd).toBeLessThan(audience.length + 1);

      expect(await itemsOf(erased.id, erased.number.phone_number_id)).toEqual([]);
      expect(await mediaObjectsOf(erased.id)).toBe(0);
      expect(await schedulesOf(later.body.data.id)).toEqual([]);
      expect(existsSync(join(secretsDir(), `${erased.id}.json`))).toBe(false);
      expect(existsSync(join(secretsDir(), `${other.id}.json`))).toBe(true);
      expect(await itemsOf(other.id, other.number.phone_number_id)).toHaveLength(othersBefore.length);
      expect((await admin('GET', '/workspaces')).body.data.map((w: { id: string }) => w.id)).not.toContain(erased.id);

      // Erased: a DELETE again finds nothing; its number is connectable by another workspace.
      expect((await admin('DELETE', `/workspaces/${erased.id}`)).status).toBe(404);
      const reconnected = await admin('POST', `/workspaces/${other.id}/numbers`, erased.number);
      expect(reconnected.status).toBe(201);
      expect((await other.call('GET', '/api/v1/contacts')).body.data).toHaveLength(1);
    } finally {
      await receiver.stop();
    }
  }, 120_000);

  it('stopped by a failing step, keeps its progress and shows it; a DELETE again takes it up from there to the end', async () => {
    const stopped = await open('Interrupted');
    expect((await stopped.call('POST', '/api/v1/contacts', { phone_number: '+14155550123', name: 'Gone' })).status).toBe(201);
    // The secret's step fails: the store's directory is a file.
    const dir = secretsDir();
    const blocked = join(dir, 'not-a-directory');
    writeFileSync(blocked, '');
    process.env.LOCAL_WORKSPACE_SECRETS_DIR = blocked;
    try {
      expect((await admin('DELETE', `/workspaces/${stopped.id}`)).status).toBe(202);
      const halted = await eventually(
        () => admin('GET', `/workspaces/${stopped.id}`),
        (reply) => reply.body.data?.erasure?.step === 'secret',
        30_000,
      );
      expect(halted.body.data).toMatchObject({ status: 'deleting', erasure: { step: 'secret', items_deleted: expect.any(Number) } });
      expect(halted.body.data.erasure.items_deleted).toBeGreaterThan(0);
      // Everything but the workspace item (its progress) is gone already.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect((await itemsOf(stopped.id, stopped.number.phone_number_id)).map((item) => `${item.PK} ${item.SK}`)).toEqual([`WS#${stopped.id} WORKSPACE`]);
      expect((await admin('GET', `/workspaces/${stopped.id}`)).body.data.status).toBe('deleting');
    } finally {
      process.env.LOCAL_WORKSPACE_SECRETS_DIR = dir;
    }
    expect((await admin('DELETE', `/workspaces/${stopped.id}`)).status).toBe(202);
    await eventually(
      () => admin('GET', `/workspaces/${stopped.id}`),
      (reply) => reply.status === 404,
      30_000,
    );
    expect(await itemsOf(stopped.id, stopped.number.phone_number_id)).toEqual([]);
  }, 90_000);

  it('answers 404 for an unknown workspace', async () => {
    const unknown = await admin('DELETE', '/workspaces/0b9d4b2e-8f5c-4c1e-9a59-2f0f3f4e5d6c');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('not_found');
  });
});
