import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { callApi } from '#local/api-client';
import { runAsFunction } from '#local/function-context';
import { localChecks, startLocalChecks } from '#local/iam/enforcement';
import { LOCAL_ONLY, TUNABLE, sourceOf } from '#local/iam/environment';
import { LocalResources, TemplateMismatchError } from '#local/iam/requests';
import { awsClientConfig } from '#local/sdk-client-config';
import { operations } from '#shared/service/operations';
import { queues, type QueueName } from '#shared/service/queues';
import { useTestApi } from '../support/api';

const root = resolve(__dirname, '../..');
const api = useTestApi({ runtime: true });

/**
 * The template and the code agree (local/iam): the settings a function reads are set on it, its
 * handler is where shared/service/operations.ts says, and what it calls exists in the template.
 * Every suite that runs the local stack checks the calls and reads its functions make as they make
 * them; these tests show the checks fail where the two disagree, and check what needs no run.
 */
let errors: jest.SpyInstance;
beforeAll(() => startLocalChecks());
beforeEach(() => (errors = jest.spyOn(console, 'error').mockImplementation(() => undefined)));
afterEach(() => errors.mockRestore());

describe('settings: each function reads only what its template environment sets, Lambda sets, or the local stack alone has', () => {
  test('a function reading a setting its template lacks fails, as it would find it unset once deployed', async () => {
    const workspace = await api.workspace();
    const restore = localChecks.withoutVariable('UpsertContact', 'TABLE_NAME');
    let reply;
    try {
      reply = await callApi(api.baseUrl, 'POST', '/api/v1/contacts', { key: workspace.key, body: { phone_number: '+14155550801' } });
    } finally {
      restore();
    }
    expect(reply.status).toBe(500);
    expect(errors.mock.calls.flat().join('\n')).toContain('UpsertContact reads TABLE_NAME, which its function in the template does not have');
    expect((await api.call('POST', '/api/v1/contacts', { key: workspace.key, body: { phone_number: '+14155550801' } })).status).toBe(201);
  });

  test('every variable shared/config.ts reads is set by the template on some function, by Lambda, is local-only, or a tunable with a default', () => {
    const source = readFileSync(resolve(root, 'shared/config.ts'), 'utf8');
    const named = [...source.matchAll(/process\.env\.([A-Z0-9_]+)|(?:number|required)\('([A-Z0-9_]+)'/g)].map((m) => m[1] ?? m[2]);
    const queueUrls = (Object.keys(queues) as QueueName[]).map((name) => `${name.toUpperCase()}_QUEUE_URL`);
    const inTemplate = Object.assign({}, ...Object.values(localChecks.model().functions).map((fn) => fn.environment)) as Record<string, string>;
    const unset = [...new Set([...named, ...queueUrls])].filter((name) => sourceOf(name, inTemplate) === 'missing');
    expect(unset).toEqual([]);
  });

  test("no local-only variable is set in the template: each is the local stack's alone", () => {
    const both = Object.entries(localChecks.model().functions).flatMap(([name, fn]) =>
      Object.keys(fn.environment)
        .filter((variable) => LOCAL_ONLY.has(variable))
        .map((variable) => `${name}: ${variable}`),
    );
    expect(both).toEqual([]);
    expect([...LOCAL_ONLY].filter((variable) => TUNABLE.has(variable))).toEqual([]);
  });
});

// test/cdk/bundling.test.ts also bundles each handler and loads it with nothing beside it.
describe('handlers: each operation names its handler module, which exports `handler`', () => {
  test.each(operations.map((op) => [op.name, op.handler]))('%s: %s', (_name, handler) => {
    expect(handler).toMatch(/^functions\/.+\.ts$/);
    const file = resolve(root, handler);
    expect(existsSync(file)).toBe(true);
    expect(readFileSync(file, 'utf8')).toMatch(/export (const|async function|function) handler\b|export \{[^}]*\bhandler\b[^}]*\}/);
  });
});

describe('resources: what a function calls exists in the template', () => {
  test('every resource the local stack makes stands for one of the template: table, stream, queues and their dead letters, bus, bucket, scheduler role', () => {
    const { resources } = localChecks.model();
    const local = new LocalResources(resources);
    const queueUrl = (name: string) => `${process.env.SQS_ENDPOINT}/000000000000/${name}`;
    for (const name of Object.keys(queues) as QueueName[]) {
      expect(local.queue(process.env[`${name.toUpperCase()}_QUEUE_URL`])).toBe(resources.queues[name]);
      expect(local.queue(process.env[`${name.toUpperCase()}_DEAD_LETTER_QUEUE_URL`])).toBe(resources.deadLetterQueues[name]);
    }
    expect(local.queue(queueUrl('table-stream-failures'))).toBe(resources.streamFailureQueue);
    expect(local.table(process.env.TABLE_NAME)).toBe(resources.table.arn);
    expect(local.index(process.env.TABLE_NAME, 'byParent')).toBe(`${resources.table.arn}/index/byParent`);
    expect(local.stream(`arn:aws:dynamodb:ddblocal:000000000000:table/${process.env.TABLE_NAME}/stream/2026-01-01T00:00:00.000`)).toBe(
      resources.table.streamArn,
    );
    expect(local.bus(process.env.EVENT_BUS_NAME)).toBe(resources.eventBus.arn);
    expect(local.bucket(process.env.MEDIA_BUCKET)).toBe(resources.mediaBucket.arn);
    expect(local.role(process.env.SCHEDULER_ROLE_ARN)).toBe(resources.schedulerRole);
  });

  test.each([
    [
      'a queue',
      'SendWorker',
      () =>
        new SQSClient(awsClientConfig(process.env.SQS_ENDPOINT)).send(
          new SendMessageCommand({ QueueUrl: `${process.env.SQS_ENDPOINT}/000000000000/unknown`, MessageBody: '{}' }),
        ),
      /Queue .*\/unknown has no counterpart in the template/,
    ],
    [
      'a table',
      'GetContact',
      () =>
        DynamoDBDocumentClient.from(new DynamoDBClient(awsClientConfig(process.env.DYNAMODB_ENDPOINT))).send(
          new GetCommand({ TableName: 'another-table', Key: { PK: 'a', SK: 'b' } }),
        ),
      /Table another-table is not the stack's table/,
    ],
    [
      'an event bus',
      'PublishEvents',
      () =>
        new EventBridgeClient(awsClientConfig(process.env.EVENTBRIDGE_ENDPOINT)).send(
          new PutEventsCommand({ Entries: [{ EventBusName: 'another-bus', Source: 'messaging-api', DetailType: 'x', Detail: '{}' }] }),
        ),
      /Event bus another-bus has no counterpart in the template/,
    ],
  ])('a call to %s the template lacks fails loudly, before it is sent', async (_what, functionName, call, message) => {
    const sent = localChecks.expectingFailures(() => runAsFunction(functionName, call));
    await expect(sent).rejects.toThrow(TemplateMismatchError);
    await expect(sent).rejects.toThrow(message);
    expect(errors.mock.calls.flat().join('\n')).toMatch(message);
  });
});
