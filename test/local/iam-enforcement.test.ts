import { callApi } from '#local/api-client';
import { localChecks, type Refusal } from '#local/iam/enforcement';
import type { PolicyStatement } from '#local/iam/model';
import { useTestApi, type TestWorkspace } from '../support/api';
import { customerMessage, postPlatformWebhook } from '../support/platform-webhook';
import { simulatorControl } from '../support/simulator';
import { eventually } from '../support/wait';

process.env.MEDIA_BACKOFF_SCALE = '0.001';
// A worker's refused job comes back soon: its grant given back, the next delivery succeeds.
process.env.QUEUE_VISIBILITY_SCALE = '0.05';
const api = useTestApi({ runtime: true, statusIntervalMs: 20 });
const simulator = simulatorControl(() => api.simulator.url);

/**
 * The local stack refuses what the template's roles do not grant (local/iam/enforcement.ts): with
 * one statement taken from a function's role, as if lib/access-grants.ts lacked the grant, the
 * function's call fails through the API or its worker exactly as it would in AWS, and succeeds
 * again once the statement is back.
 */
const list = (value: string | string[] | undefined) => (value === undefined ? [] : Array.isArray(value) ? value : [value]);
const ACCOUNT = '000000000000';

let errors: jest.SpyInstance;
beforeEach(() => (errors = jest.spyOn(console, 'error').mockImplementation(() => undefined)));
afterEach(() => errors.mockRestore());

/** Takes away the one statement of `functionName`'s role that grants `action` (on a resource containing `on`). */
function withoutGrant(functionName: string, action: string, on = '') {
  const picked: PolicyStatement[] = [];
  const { taken, restore } = localChecks.withoutStatement(functionName, (statement) => {
    const pick = list(statement.Action).includes(action) && list(statement.Resource).some((resource) => resource.includes(on));
    if (pick) picked.push(statement);
    return pick;
  });
  expect(taken).toBe(1);
  return { statement: picked[0], restore };
}

/** The refusal of `action` (one of `actions`) to `functionName` once the call has failed (its error is the SDK's). */
const refusalOf = (functionName: string, actions: string | string[], since: number) =>
  eventually(
    async () =>
      localChecks
        .refusals()
        .slice(since)
        .find((r) => r.functionName === functionName && list(actions).includes(r.action) && r.error),
    (refusal): refusal is Refusal => refusal !== undefined,
    20_000,
  ) as Promise<Refusal>;

/** AWS's words for an identity-based refusal, with the function's role as the session's. */
const awsMessage = (functionName: string, action: string, resource: string) =>
  `User: arn:aws:sts::${ACCOUNT}:assumed-role/${localChecks.model().functions[functionName].role}/${functionName} is not authorized to perform: ` +
  `${action} on resource: ${resource} because no identity-based policy allows the ${action} action`;

/** The refusal was logged with the action and the resource the role lacks. */
const logged = (refusal: Refusal) =>
  expect(errors.mock.calls.flat().join('\n')).toContain(`${refusal.functionName} was refused ${refusal.action} on ${refusal.resource}`);

/** The customer's one inbound message once its media is copied (a link to the copy is signed as the message is read). */
async function copiedMedia(customer: string): Promise<{ id: string; media: { url: string } }> {
  const [stored] = await eventually(
    async () => (await api.call('GET', `/api/v1/messages?direction=inbound&phone=${customer}`, { key: ws.key })).body.data as { id: string }[],
    (messages) => messages.length === 1,
  );
  return eventually(
    async () => (await api.call('GET', `/api/v1/messages/${stored.id}`, { key: ws.key })).body.data,
    (message) => Boolean(message.media?.url),
    40_000,
  );
}

let ws: TestWorkspace;

describe('IAM on the local stack: a grant taken from a role refuses its call as AWS does', () => {
  beforeAll(async () => {
    ws = await api.workspaceWithTemplates();
  });

  test('UpsertContact without its table write statement: the API answers 500, DynamoDB refused the write, not retried', async () => {
    const since = localChecks.refusals().length;
    const { statement, restore } = withoutGrant('UpsertContact', 'dynamodb:PutItem');
    let reply;
    try {
      reply = await callApi(api.baseUrl, 'POST', '/api/v1/contacts', { key: ws.key, body: { phone_number: '+14155550701', name: 'Refused' } });
    } finally {
      restore();
    }
    expect(reply.status).toBe(500);
    // Its first write is refused: a put or an update of the statement's actions.
    const refusal = await refusalOf('UpsertContact', list(statement.Action), since);
    const table = localChecks.model().resources.table.arn;
    expect(refusal.resource).toBe(table);
    expect(refusal.error).toMatchObject({
      name: 'AccessDeniedException',
      $fault: 'client',
      $metadata: { httpStatusCode: 400, attempts: 1, totalRetryDelay: 0 },
      message: awsMessage('UpsertContact', refusal.action, table),
    });
    logged(refusal);
    // The grant back, the same request is served.
    const again = await api.call('POST', '/api/v1/contacts', { key: ws.key, body: { phone_number: '+14155550701', name: 'Refused' } });
    expect(again.status).toBe(201);
  });

  test('ReceivePlatformWebhook without sqs:SendMessage on the inbound queue: the webhook is answered 500, SQS refused the send', async () => {
    const since = localChecks.refusals().length;
    const { restore } = withoutGrant('ReceivePlatformWebhook', 'sqs:SendMessage', 'Inbound');
    let status: number;
    try {
      status = await postPlatformWebhook(api.baseUrl, customerMessage(ws.wabaId, ws.phoneNumberId, '14155550702', { type: 'text', text: { body: 'hello' } }));
    } finally {
      restore();
    }
    expect(status).toBe(500);
    const refusal = await refusalOf('ReceivePlatformWebhook', 'sqs:SendMessage', since);
    const queue = localChecks.model().resources.queues.inbound;
    expect(refusal.resource).toBe(queue);
    // SQS speaks JSON and names its errors for the query protocol's clients too: the SDK surfaces `AccessDenied`; SQS writes the action in lower case.
    expect(refusal.error).toMatchObject({
      name: 'AccessDenied',
      Code: 'AccessDenied',
      $fault: 'client',
      $metadata: { httpStatusCode: 400, attempts: 1 },
      message: awsMessage('ReceivePlatformWebhook', 'sqs:sendmessage', queue),
    });
    logged(refusal);
  });

  test('PublishEvents without events:PutEvents on the bus: the stream batch is refused by EventBridge', async () => {
    const since = localChecks.refusals().length;
    const { restore } = withoutGrant('PublishEvents', 'events:PutEvents');
    let refusal: Refusal;
    try {
      const reply = await api.call('POST', '/api/v1/messages', {
        key: ws.key,
        body: { to: '+14155550703', template: 'order_update', variables: { 1: 'Ada', 2: 'E-1' } },
      });
      expect(reply.status).toBe(202);
      refusal = await refusalOf('PublishEvents', 'events:PutEvents', since);
    } finally {
      restore();
    }
    const bus = localChecks.model().resources.eventBus.arn;
    expect(refusal.resource).toBe(bus);
    expect(refusal.error).toMatchObject({
      name: 'AccessDeniedException',
      $fault: 'client',
      $metadata: { httpStatusCode: 400, attempts: 1 },
      message: awsMessage('PublishEvents', 'events:PutEvents', bus),
    });
    logged(refusal);
  });

  test('TableOutbox without scheduler:CreateSchedule: the Scheduler refuses a scheduled launch its schedule', async () => {
    const since = localChecks.refusals().length;
    const { restore } = withoutGrant('TableOutbox', 'scheduler:CreateSchedule');
    let refusal: Refusal;
    try {
      const at = new Date(Date.now() + 3600_000).toISOString();
      const campaign = (await api.call('POST', '/api/v1/campaigns', { key: ws.key, body: { name: 'Later', template_name: 'welcome', scheduled_at: at } })).body
        .data;
      const launched = await api.call('POST', `/api/v1/campaigns/${campaign.id}/launch`, {
        key: ws.key,
        body: { recipients: [{ phone: '+14155550704', variables: ['Later'] }] },
      });
      expect(launched.body.data.status).toBe('scheduled');
      refusal = await refusalOf('TableOutbox', 'scheduler:CreateSchedule', since);
      expect(refusal.resource).toBe(`arn:aws:scheduler:us-east-1:${ACCOUNT}:schedule/default/campaign-${campaign.id}`);
    } finally {
      restore();
    }
    expect(refusal.error).toMatchObject({
      name: 'AccessDeniedException',
      $fault: 'client',
      $metadata: { httpStatusCode: 400, attempts: 1 },
      message: awsMessage('TableOutbox', 'scheduler:CreateSchedule', refusal.resource),
    });
    logged(refusal);
  });

  test("TableOutbox without iam:PassRole of the schedules' role: CreateSchedule is refused for passing it", async () => {
    const since = localChecks.refusals().length;
    const { restore } = withoutGrant('TableOutbox', 'iam:PassRole');
    let refusal: Refusal;
    try {
      const at = new Date(Date.now() + 3600_000).toISOString();
      const campaign = (await api.call('POST', '/api/v1/campaigns', { key: ws.key, body: { name: 'Pass', template_name: 'welcome', scheduled_at: at } })).body
        .data;
      await api.call('POST', `/api/v1/campaigns/${campaign.id}/launch`, { key: ws.key, body: { recipients: [{ phone: '+14155550705', variables: ['P'] }] } });
      refusal = await refusalOf('TableOutbox', 'iam:PassRole', since);
    } finally {
      restore();
    }
    const role = localChecks.model().resources.schedulerRole!;
    expect(refusal.resource).toBe(role);
    expect(refusal.error).toMatchObject({ name: 'AccessDeniedException', message: awsMessage('TableOutbox', 'iam:PassRole', role) });
  });

  test("MediaCopyWorker without s3:PutObject: the copy of a customer's image is refused by S3 (AccessDenied, 403), and made once the grant is back", async () => {
    const since = localChecks.refusals().length;
    const { restore } = withoutGrant('MediaCopyWorker', 's3:PutObject');
    const customer = '14155550706';
    let refusal: Refusal;
    try {
      await simulator.inbound({ phone_number_id: ws.phoneNumberId, from: customer, type: 'image', image: { caption: 'Refused copy' } });
      refusal = await refusalOf('MediaCopyWorker', 's3:PutObject', since);
    } finally {
      restore();
    }
    expect(refusal.resource).toMatch(new RegExp(`^${localChecks.model().resources.mediaBucket.arn}/`));
    expect(refusal.error).toMatchObject({
      name: 'AccessDenied',
      $fault: 'client',
      $metadata: { httpStatusCode: 403, attempts: 1 },
      // S3 quotes the resource.
      message: awsMessage('MediaCopyWorker', 's3:PutObject', `"${refusal.resource}"`),
    });
    logged(refusal);
    const copied = await copiedMedia(customer);
    expect(copied.media.url).toContain('X-Amz-Signature');
  }, 60_000);

  test('GetMessage without s3:GetObject: the link to a media copy is refused as it is signed', async () => {
    const customer = '14155550707';
    await simulator.inbound({ phone_number_id: ws.phoneNumberId, from: customer, type: 'image', image: { caption: 'Linked' } });
    const stored = await copiedMedia(customer);
    const since = localChecks.refusals().length;
    const { restore } = withoutGrant('GetMessage', 's3:GetObject');
    let reply;
    try {
      reply = await callApi(api.baseUrl, 'GET', `/api/v1/messages/${stored.id}`, { key: ws.key });
    } finally {
      restore();
    }
    expect(reply.status).toBe(500);
    const refusal = await refusalOf('GetMessage', 's3:GetObject', since);
    expect(refusal.error).toMatchObject({ name: 'AccessDenied', $metadata: { httpStatusCode: 403 } });
    expect((await api.call('GET', `/api/v1/messages/${stored.id}`, { key: ws.key })).body.data.media.url).toContain('X-Amz-Signature');
  }, 60_000);
});
