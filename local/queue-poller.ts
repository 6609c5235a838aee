import { DeleteMessageBatchCommand, type Message, ReceiveMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { Handler } from '#local/handlers';
import { lambdaContext } from '#local/lambda-context';
import { runAsEventSource } from '#local/function-context';

export interface QueuePollerOptions {
  /** The queue service's client (with the service's retries and time-outs: `serviceClientConfig` of shared/aws/clients.ts). */
  sqs: SQSClient;
  queueUrl: string;
  queueArn: string;
  functionName: string;
  handler: Handler;
  batchSize: number;
  /** Concurrent batches in flight, like Lambda's concurrency for an SQS event source. */
  concurrency?: number;
}

function toRecord(message: Message, queueArn: string): SQSRecord {
  const attributes = message.Attributes ?? {};
  return {
    messageId: message.MessageId!,
    receiptHandle: message.ReceiptHandle!,
    body: message.Body ?? '',
    attributes: {
      ApproximateReceiveCount: attributes.ApproximateReceiveCount ?? '1',
      SentTimestamp: attributes.SentTimestamp ?? String(Date.now()),
      SenderId: attributes.SenderId ?? 'local',
      ApproximateFirstReceiveTimestamp: attributes.ApproximateFirstReceiveTimestamp ?? String(Date.now()),
    },
    messageAttributes: Object.fromEntries(
      Object.entries(message.MessageAttributes ?? {}).map(([name, value]) => [
        name,
        { stringValue: value.StringValue, dataType: value.DataType ?? 'String', stringListValues: [], binaryListValues: [] },
      ]),
    ),
    md5OfBody: message.MD5OfBody ?? '',
    eventSource: 'aws:sqs',
    eventSourceARN: queueArn,
    awsRegion: 'us-east-1',
  };
}

/**
 * Lambda's SQS event source, locally: receives batches, invokes the handler with a real
 * `SQSEvent`, deletes what succeeded and leaves reported failures (or the whole batch, if
 * the handler throws) to reappear after the visibility time-out, where the queue's redrive
 * policy moves them to the dead-letter queue once they exceed maxReceiveCount.
 */
export function startQueuePoller(options: QueuePollerOptions): { stop(): Promise<void> } {
  const { sqs, queueUrl, queueArn, functionName, handler, batchSize, concurrency = 2 } = options;
  let running = true;
  /** Lambda's event source receives and deletes with the function's role (local/iam/enforcement.ts checks it). */
  const asEventSource = <T>(call: () => Promise<T>) => runAsEventSource([functionName], call);

  async function processBatch(messages: Message[]) {
    const records = messages.map((message) => toRecord(message, queueArn));
    let failed: Set<string>;
    try {
      const response = (await handler({ Records: records } satisfies SQSEvent, lambdaContext(functionName))) as SQSBatchResponse | undefined;
      failed = new Set((response?.batchItemFailures ?? []).map((failure) => failure.itemIdentifier));
    } catch (error) {
      console.error(`${functionName} failed a batch`, error);
      failed = new Set(records.map((record) => record.messageId));
    }
    const done = records.filter((record) => !failed.has(record.messageId));
    if (done.length) {
      await asEventSource(() =>
        sqs.send(
          new DeleteMessageBatchCommand({
            QueueUrl: queueUrl,
            Entries: done.map((record, i) => ({ Id: String(i), ReceiptHandle: record.receiptHandle })),
          }),
        ),
      );
    }
  }

  async function loop() {
    while (running) {
      try {
        const { Messages } = await asEventSource(() =>
          sqs.send(
            new ReceiveMessageCommand({
              QueueUrl: queueUrl,
              MaxNumberOfMessages: Math.min(batchSize, 10),
              WaitTimeSeconds: 1,
              MessageSystemAttributeNames: ['All'],
              MessageAttributeNames: ['All'],
            }),
          ),
        );
        if (Messages?.length) await processBatch(Messages);
      } catch (error) {
        if (running) console.error(`${functionName} poller error`, error);
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
  }

  const loops = Array.from({ length: concurrency }, loop);
  return {
    stop: async () => {
      running = false;
      await Promise.all(loops);
    },
  };
}
