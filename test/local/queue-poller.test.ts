import { CreateQueueCommand, GetQueueAttributesCommand, ReceiveMessageCommand, SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { awsClientConfig } from '#local/sdk-client-config';
import { startQueuePoller } from '#local/queue-poller';
import { serviceClientConfig } from '#shared/aws/clients';
import { startSqsEmulator, type SqsEmulator } from '#local/sqs-emulator';

let emulator: SqsEmulator;
let sqs: SQSClient;

beforeAll(async () => {
  emulator = await startSqsEmulator('any');
  sqs = new SQSClient(awsClientConfig(emulator.endpoint));
});
afterAll(async () => {
  sqs?.destroy();
  await emulator?.stop();
});

async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('local SQS event source', () => {
  it('delivers real SQSEvent batches, retries reported failures after the visibility time-out, and redrives poison messages', async () => {
    const dlq = await sqs.send(new CreateQueueCommand({ QueueName: 'poller-dlq' }));
    const dlqArn = (await sqs.send(new GetQueueAttributesCommand({ QueueUrl: dlq.QueueUrl, AttributeNames: ['QueueArn'] }))).Attributes!.QueueArn!;
    const queue = await sqs.send(
      new CreateQueueCommand({
        QueueName: 'poller-main',
        Attributes: { VisibilityTimeout: '1', RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlqArn, maxReceiveCount: 2 }) },
      }),
    );

    const seen: Record<string, number> = {};
    const batchSizes: number[] = [];
    const handler = async (event: unknown): Promise<SQSBatchResponse> => {
      const { Records } = event as SQSEvent;
      batchSizes.push(Records.length);
      const batchItemFailures = [];
      for (const record of Records) {
        expect(record.eventSource).toBe('aws:sqs');
        seen[record.body] = (seen[record.body] ?? 0) + 1;
        const fails = record.body === 'poison' || (record.body === 'flaky' && seen.flaky === 1);
        if (fails) batchItemFailures.push({ itemIdentifier: record.messageId });
      }
      return { batchItemFailures };
    };
    const bodies = ['a', 'b', 'c', 'flaky', 'poison'];
    await sqs.send(new SendMessageBatchCommand({ QueueUrl: queue.QueueUrl, Entries: bodies.map((body, i) => ({ Id: String(i), MessageBody: body })) }));

    const pollerSqs = new SQSClient(serviceClientConfig(emulator.endpoint));
    const poller = startQueuePoller({
      sqs: pollerSqs,
      queueUrl: queue.QueueUrl!,
      queueArn: 'arn:aws:sqs:us-east-1:000000000000:poller-main',
      functionName: 'Test',
      handler,
      batchSize: 3,
    });
    try {
      await until(() => seen.flaky === 2 && seen.poison === 2);
      const redriven = await sqs.send(new ReceiveMessageCommand({ QueueUrl: dlq.QueueUrl, WaitTimeSeconds: 5 }));
      expect(redriven.Messages?.map((m) => m.Body)).toEqual(['poison']);
      await new Promise((resolve) => setTimeout(resolve, 1500));
    } finally {
      await poller.stop();
      pollerSqs.destroy();
    }
    expect(seen).toEqual({ a: 1, b: 1, c: 1, flaky: 2, poison: 2 });
    expect(Math.max(...batchSizes)).toBeLessThanOrEqual(3);
  });
});
