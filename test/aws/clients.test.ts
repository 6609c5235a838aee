import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CreateScheduleCommand, SchedulerClient } from '@aws-sdk/client-scheduler';
import { GetQueueUrlCommand, SQSClient } from '@aws-sdk/client-sqs';
import { awsAccess, BudgetedRetries, MAX_ATTEMPTS, requestHandler, serviceClientConfig } from '#shared/aws/clients';

/**
 * The service's settings of the SDK's clients (shared/aws/clients.ts): which errors are retried
 * and for how long, each attempt's time-out, and client tokens kept across retries, against a
 * scripted service that answers each attempt as a test says.
 */
describe('the retry strategy', () => {
  const retries = new BudgetedRetries(6_000);
  const retry = async (count: number, errorType: 'THROTTLING' | 'TRANSIENT' | 'SERVER_ERROR' | 'CLIENT_ERROR', startedAt = Date.now()) => {
    const token = { getRetryCount: () => count, getRetryDelay: () => 0, getRetryCost: () => undefined, startedAt };
    return retries.refreshRetryTokenForRetry(token, { errorType, error: new Error(errorType) as never });
  };

  test('throttling and transient errors are retried up to the eighth attempt, with full-jitter back-off of at most 1 s', async () => {
    for (let count = 0; count < MAX_ATTEMPTS - 1; count++) {
      const transient = await retry(count, 'TRANSIENT');
      expect(transient.getRetryCount()).toBe(count + 1);
      expect(transient.getRetryDelay()).toBeLessThanOrEqual(Math.min(1_000, 25 * 2 ** (count + 1)));
      expect((await retry(count, 'THROTTLING')).getRetryDelay()).toBeLessThanOrEqual(Math.min(1_000, 100 * 2 ** (count + 1)));
    }
    await expect(retry(MAX_ATTEMPTS - 1, 'TRANSIENT')).rejects.toThrow('No retry token available');
  });

  test('client errors and 5xx the SDK does not call transient (501) are not retried, nor anything past the budget', async () => {
    await expect(retry(0, 'CLIENT_ERROR')).rejects.toThrow();
    await expect(retry(0, 'SERVER_ERROR')).rejects.toThrow();
    await expect(retry(1, 'TRANSIENT', Date.now() - 6_001)).rejects.toThrow();
    expect((await retry(1, 'TRANSIENT', Date.now() - 4_000)).getRetryCount()).toBe(2);
  });
});

type Answer = (request: IncomingMessage, body: string, response: ServerResponse) => void;

describe('clients with the service settings, against a scripted service', () => {
  let server: Server;
  let endpoint: string;
  let answers: Answer[] = [];
  const seen: { target?: string; url?: string; body: string }[] = [];
  beforeAll(async () => {
    server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        seen.push({ target: request.headers['x-amz-target'] as string | undefined, url: request.url, body });
        const answer = answers.shift() ?? ((_, __, res) => res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' }).end('{"QueueUrl":"q"}'));
        answer(request, body, response);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  beforeEach(() => {
    answers = [];
    seen.length = 0;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const refuse =
    (status: number, type: string): Answer =>
    (_, __, response) =>
      response.writeHead(status, { 'content-type': 'application/x-amz-json-1.0' }).end(JSON.stringify({ __type: type, message: type }));
  const drop: Answer = (request) => request.socket.destroy();
  const hang: Answer = () => undefined;

  test('a throttle, a 500 and a dropped connection are retried until the call passes', async () => {
    const sqs = new SQSClient(serviceClientConfig(endpoint));
    answers = [refuse(400, 'com.amazonaws.sqs#ThrottlingException'), refuse(500, 'com.amazon.coral.service#InternalFailure'), drop];
    const { QueueUrl, $metadata } = await sqs.send(new GetQueueUrlCommand({ QueueName: 'q' }));
    expect(QueueUrl).toBe('q');
    expect($metadata.attempts).toBe(4);
    expect(seen.map((call) => call.target)).toEqual(Array(4).fill('AmazonSQS.GetQueueUrl'));
    sqs.destroy();
  });

  test('a refusal that is not transient is thrown at once, by name', async () => {
    const sqs = new SQSClient(serviceClientConfig(endpoint));
    answers = [refuse(400, 'com.amazonaws.sqs#QueueDoesNotExist')];
    const refused = await sqs.send(new GetQueueUrlCommand({ QueueName: 'q' })).catch((error: Error) => error);
    expect(refused).toMatchObject({ name: 'QueueDoesNotExist', $metadata: { httpStatusCode: 400, attempts: 1 } });
    expect(seen).toHaveLength(1);
    sqs.destroy();
  });

  test("an attempt with no answer ends at its time-out and is retried (the handler's request time-out throws)", async () => {
    const sqs = new SQSClient({
      ...awsAccess(endpoint),
      retryStrategy: new BudgetedRetries(30_000),
      requestHandler: requestHandler({ connectionTimeout: 500, requestTimeout: 300 }),
    });
    answers = [hang];
    const started = Date.now();
    const { QueueUrl } = await sqs.send(new GetQueueUrlCommand({ QueueName: 'q' }));
    expect(QueueUrl).toBe('q');
    expect(seen).toHaveLength(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    sqs.destroy();
  });

  test("a schedule's create keeps its client token across retries, as a repeat of an applied create must", async () => {
    const scheduler = new SchedulerClient(serviceClientConfig(endpoint));
    answers = [drop, refuse(500, 'InternalServerException'), (_, __, response) => response.writeHead(200, { 'content-type': 'application/json' }).end('{}')];
    await scheduler.send(
      new CreateScheduleCommand({
        Name: 'campaign-1',
        ScheduleExpression: 'at(2030-01-01T00:00:00)',
        FlexibleTimeWindow: { Mode: 'OFF' },
        Target: { Arn: 'arn:aws:lambda:us-east-1:000000000000:function:f', RoleArn: 'arn:aws:iam::000000000000:role/r' },
      }),
    );
    const tokens = seen.map((call) => (JSON.parse(call.body) as { ClientToken: string }).ClientToken);
    expect(seen.map((call) => call.url)).toEqual(Array(3).fill('/schedules/campaign-1'));
    expect(tokens[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(tokens).size).toBe(1);
    scheduler.destroy();
  });
});
