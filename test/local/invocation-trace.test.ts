import { Readable } from 'node:stream';
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { SQSClient, GetQueueUrlCommand } from '@aws-sdk/client-sqs';
import { longestChain } from '#local/critical-path';
import { outsideInvocations, startInvocationTracing, traceInvocation } from '#local/invocation-trace';

/** Answers every request with `body` after `ms`, without a network. */
const answering = (body: string, ms = 200) => ({
  handle: async () => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    return { response: { statusCode: 200, headers: { 'content-type': 'application/x-amz-json-1.0' }, body: Readable.from([Buffer.from(body)]) } };
  },
});
const config = { region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' }, endpoint: 'http://localhost:1' };
const dynamodb = new DynamoDBClient({ ...config, requestHandler: answering('{}') });
const sqs = new SQSClient({ ...config, requestHandler: answering('{"QueueUrl":"http://localhost:1/q"}') });
const get = () => dynamodb.send(new GetItemCommand({ TableName: 't', Key: { PK: { S: 'a' } } }));

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
    // Warm, as a Lambda instance is after its first request: the SDK's first call loads and compiles its code.
    await Promise.all([get(), sqs.send(new GetQueueUrlCommand({ QueueName: 'q' }))]);
    const { trace, outcome } = await traceInvocation(async () => {
      await get();
      await Promise.all([get(), get()]);
      let spin = 0;
      for (const end = performance.now() + 20; performance.now() < end; ) spin++;
      await sqs.send(new GetQueueUrlCommand({ QueueName: 'q' }));
      await outsideInvocations(get);
      return spin;
    });
    expect(outcome.status).toBe('fulfilled');
    expect(trace!.calls.map((call) => `${call.service} ${call.command}`)).toEqual([
      'DynamoDB GetItem',
      'DynamoDB GetItem',
      'DynamoDB GetItem',
      'SQS GetQueueUrl',
    ]);
    expect(longestChain(trace!.calls.filter((call) => call.service === 'DynamoDB'))).toHaveLength(2);
    expect(longestChain(trace!.calls)).toHaveLength(3);
    // The 20 ms spin and the SDK's work, not the 600 ms the calls waited (a busy machine stretches the work).
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
