import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GetQueueUrlCommand, SQSClient } from '@aws-sdk/client-sqs';
import { serviceClientConfig } from '#shared/aws/clients';
import { TableClient } from '#shared/data/table/client';
import { GetCommand } from '#shared/data/table/commands';
import { longestChain } from '#local/critical-path';
import { outsideInvocations, startInvocationTracing, traceInvocation } from '#local/invocation-trace';

/** Answers every request with `{}` after 200 ms, as DynamoDB and SQS answer these calls. */
let server: Server;
let dynamodb: TableClient;
let sqs: SQSClient;
beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume();
    request.on('end', () => setTimeout(() => response.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' }).end('{}'), 200));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  dynamodb = new TableClient(endpoint);
  sqs = new SQSClient(serviceClientConfig(endpoint));
});
afterAll(async () => {
  dynamodb.destroy();
  sqs.destroy();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
const get = () => dynamodb.send(new GetCommand({ TableName: 't', Key: { PK: 'a' } }));
const getQueueUrl = () => sqs.send(new GetQueueUrlCommand({ QueueName: 'q' }));

describe('the bench meter: calls and CPU time per invocation', () => {
  test('the longest chain takes the spans that waited on each other', () => {
    const spans = [
      { start: 0, end: 10 },
      { start: 1, end: 9 },
      { start: 10, end: 12 },
      { start: 11, end: 30 },
      { start: 13, end: 20 },
    ];
    expect(longestChain(spans)).toEqual([spans[1], spans[2], spans[4]]);
    expect(longestChain([])).toEqual([]);
  });

  test('an invocation records its own calls, in sequence and side by side, and its CPU time', async () => {
    startInvocationTracing();
    // Warm, as a Lambda instance is after its first request: a client's first call compiles its code.
    await Promise.all([get(), getQueueUrl()]);
    const { trace, outcome } = await traceInvocation(async () => {
      await get();
      await Promise.all([get(), get()]);
      let spin = 0;
      for (const end = performance.now() + 20; performance.now() < end; ) spin++;
      await getQueueUrl();
      await outsideInvocations(get);
      return spin;
    });
    expect(outcome.status).toBe('fulfilled');
    expect(trace!.calls.map((call) => `${call.service} ${call.command}`)).toEqual(['DynamoDB Get', 'DynamoDB Get', 'DynamoDB Get', 'SQS GetQueueUrl']);
    expect(longestChain(trace!.calls.filter((call) => call.service === 'DynamoDB'))).toHaveLength(2);
    expect(longestChain(trace!.calls)).toHaveLength(3);
    // The 20 ms spin and the clients' work, not the 600 ms the calls waited (a busy machine stretches the work).
    expect(trace!.cpuMs).toBeGreaterThanOrEqual(20);
    expect(trace!.cpuMs).toBeLessThan(300);
  });

  test('calls outside any invocation, and a failing invocation, are kept apart', async () => {
    startInvocationTracing();
    await get();
    const { trace, outcome } = await traceInvocation(async () => {
      await get();
      throw new Error('refused');
    });
    expect(outcome).toMatchObject({ status: 'rejected', reason: new Error('refused') });
    expect(trace!.calls).toHaveLength(1);
  });
});
