import { CreateQueueCommand, GetQueueAttributesCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { serviceClientConfig, withoutSdkLogger } from '#shared/aws/clients';
import { queues, type QueueName } from '#shared/service/queues';
import { loadHandler } from '#local/handlers';
import { localWiring, type OperationWith } from '#local/triggers';
import { startQueuePoller } from '#local/queue-poller';
import { startStreamPollers, type StreamFailure } from '#local/stream-poller';
import { passesStreamFilters } from '#shared/data/table/stream-filters';
import { startLocalScheduler } from '#local/scheduler-server';
import { startLocalEventBus } from '#local/event-bus-server';
import { EVENT_SOURCE } from '#shared/events/event';
import { createMediaBucket } from '#local/media-bucket';
import { runAsEventSource } from '#local/function-context';

export interface LocalRuntime {
  stop(): Promise<void>;
}

/** Creates each queue of shared/service/queues.ts with its dead-letter queue and redrive policy, as the CDK stack does. */
interface LocalQueue {
  url: string;
  arn: string;
  deadLetters: { url: string; arn: string };
}

/** QUEUE_VISIBILITY_SCALE shortens the queues' visibility time-outs (tests only): a job whose receipt was lost comes back sooner. */
const visibilityScale = () => Number(process.env.QUEUE_VISIBILITY_SCALE ?? 1);

/** Creates a queue (with its attributes) and answers its URL and ARN. */
async function createQueue(sqs: SQSClient, name: string, attributes?: Record<string, string>): Promise<{ url: string; arn: string }> {
  const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: name, ...(attributes && { Attributes: attributes }) }));
  const { Attributes } = await sqs.send(new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ['QueueArn'] }));
  return { url: QueueUrl!, arn: Attributes!.QueueArn! };
}

async function createQueues(sqs: SQSClient): Promise<Record<QueueName, LocalQueue>> {
  const created = {} as Record<QueueName, LocalQueue>;
  for (const [name, settings] of Object.entries(queues) as [QueueName, (typeof queues)[QueueName]][]) {
    const deadLetters = await createQueue(sqs, `${name}-dead-letter`);
    const queue = await createQueue(sqs, name, {
      VisibilityTimeout: String(Math.max(1, Math.round(settings.visibilityTimeoutSeconds * visibilityScale()))),
      RedrivePolicy: JSON.stringify({ deadLetterTargetArn: deadLetters.arn, maxReceiveCount: settings.maxReceiveCount }),
    });
    created[name] = { ...queue, deadLetters };
    process.env[`${name.toUpperCase()}_DEAD_LETTER_QUEUE_URL`] = deadLetters.url;
    process.env[`${name.toUpperCase()}_QUEUE_URL`] = queue.url;
  }
  return created;
}

/**
 * The asynchronous half of shared/service/operations.ts, locally: queues (and the media bucket) on the emulator with pollers
 * for queue-triggered operations, and stream pollers for stream-triggered ones, invoking the
 * same handlers with the same event types as Lambda. Expects TABLE_NAME and DYNAMODB_ENDPOINT set.
 */
export async function startRuntime(options: {
  sqsEndpoint: string;
  dynamodbEndpoint: string;
  tableName: string;
  /** Where the scheduler stand-in keeps its schedules (none: in memory). */
  schedulesFile?: string;
}): Promise<LocalRuntime> {
  const sqs = withoutSdkLogger(new SQSClient(serviceClientConfig(options.sqsEndpoint)));
  const urls = await createQueues(sqs);
  await createMediaBucket(options.sqsEndpoint);
  const scheduler = await startLocalScheduler(0, options.schedulesFile);
  const [starter] = localWiring.scheduleTargets;
  Object.assign(process.env, {
    SCHEDULER_ENDPOINT: scheduler.endpoint,
    CAMPAIGN_SCHEDULE_TARGET_ARN: `arn:aws:lambda:us-east-1:000000000000:function:${starter?.name}`,
    SCHEDULER_ROLE_ARN: 'arn:aws:iam::000000000000:role/local-scheduler',
  });
  const bus = await startLocalEventBus(0, EVENT_SOURCE);
  Object.assign(process.env, { EVENTBRIDGE_ENDPOINT: bus.endpoint, EVENT_BUS_NAME: 'messaging-api-events' });
  const running: { stop(): Promise<void> }[] = [scheduler, bus];
  /** A poller of `queue` that invokes the operation's function, as Lambda's SQS event source does. */
  const pollQueue = async (operation: OperationWith<'queue' | 'deadLetters' | 'streamFailures'>, queue: { url: string; arn: string }, concurrency: number) =>
    startQueuePoller({
      sqs,
      queueUrl: queue.url,
      queueArn: queue.arn,
      functionName: operation.name,
      handler: await loadHandler(operation),
      batchSize: operation.trigger.batchSize,
      concurrency,
    });
  for (const operation of localWiring.queuePollers) running.push(await pollQueue(operation, urls[operation.trigger.queue], 4));
  for (const operation of localWiring.deadLetterPollers) running.push(await pollQueue(operation, urls[operation.trigger.queue].deadLetters, 1));
  // The stream functions' on-failure destination, and its consumer, which tells the counting function's batches by its name.
  process.env.MESSAGE_COUNTING_FUNCTION = localWiring.streamPollers.find((operation) => operation.trigger.countsMessages)?.name;
  const failures = await createQueue(sqs, 'table-stream-failures');
  // Lambda sends a stream function's failed batch with that function's role.
  const onFailure = async (failure: StreamFailure) =>
    void (await runAsEventSource([failure.requestContext.functionArn.split(':').pop()!], () =>
      sqs.send(new SendMessageCommand({ QueueUrl: failures.url, MessageBody: JSON.stringify(failure) })),
    ));
  for (const operation of localWiring.streamFailurePollers) running.push(await pollQueue(operation, failures, 1));
  if (localWiring.streamPollers.length)
    running.push(
      await startStreamPollers({
        endpoint: options.dynamodbEndpoint,
        tableName: options.tableName,
        consumers: await Promise.all(
          localWiring.streamPollers.map(async (operation) => ({
            functionName: operation.name,
            handler: await loadHandler(operation),
            batchSize: operation.trigger.batchSize,
            batchingWindowMs: (operation.trigger.batchingWindowSeconds ?? 0) * 1000,
            filter: (record) => passesStreamFilters(operation.trigger.reads, record),
          })),
        ),
        onFailure,
      }),
    );
  return {
    stop: async () => {
      await Promise.all(running.map((r) => r.stop()));
      sqs.destroy();
    },
  };
}
