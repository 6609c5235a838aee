import { Duration, Stack } from 'aws-cdk-lib';
import type { IEventBus } from 'aws-cdk-lib/aws-events';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Queue, QueueEncryption, type QueueProps } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { queues as queueSettings, type QueueName } from '#shared/service/queues';
import { acknowledgeBusDeliveryFailureQueueFindings, acknowledgeDeadLetterQueueFindings } from '#lib/nag-suppressions';

/** Every queue of the service: SQS-managed encryption and TLS-only access (a Deny on aws:SecureTransport=false). */
const secure: QueueProps = { encryption: QueueEncryption.SQS_MANAGED, enforceSSL: true };
/** Kept longer than any source queue's messages (SQS keeps their original enqueue time), so the operator has two weeks to look. */
const deadLetterRetention = Duration.days(14);

const pascal = (name: string) => name[0].toUpperCase() + name.slice(1);

export interface WorkQueues {
  queues: Record<QueueName, Queue>;
  deadLetterQueues: Record<QueueName, Queue>;
}

/** One queue per entry of shared/service/queues.ts, each with its own dead-letter queue. */
export function createWorkQueues(scope: Construct): WorkQueues {
  const created: WorkQueues = { queues: {} as Record<QueueName, Queue>, deadLetterQueues: {} as Record<QueueName, Queue> };
  for (const [name, settings] of Object.entries(queueSettings) as [QueueName, (typeof queueSettings)[QueueName]][]) {
    const id = pascal(name);
    // The source queue points at its DLQ (RedrivePolicy) and the DLQ names its source queue
    // (RedriveAllowPolicy): two GetAtts would be a CloudFormation cycle. So the source queue gets
    // a fixed name (unique per stack) and the DLQ refers to its ARN built from that name.
    const queueName = `${Stack.of(scope).stackName}-${id}`;
    const sourceArn = Stack.of(scope).formatArn({ service: 'sqs', resource: queueName });

    const deadLetterQueue = new Queue(scope, `${id}DeadLetterQueue`, {
      ...secure,
      retentionPeriod: deadLetterRetention,
      // Only its own source queue may use it, which is what SQS "start DLQ redrive" moves messages back to.
      redriveAllowPolicy: { sourceQueues: [Queue.fromQueueArn(scope, `${id}QueueArn`, sourceArn)] },
    });
    acknowledgeDeadLetterQueueFindings(deadLetterQueue);

    created.queues[name] = new Queue(scope, `${id}Queue`, {
      ...secure,
      queueName,
      visibilityTimeout: Duration.seconds(settings.visibilityTimeoutSeconds),
      retentionPeriod: Duration.days(4),
      deadLetterQueue: { queue: deadLetterQueue, maxReceiveCount: settings.maxReceiveCount },
    });
    created.deadLetterQueues[name] = deadLetterQueue;
  }
  return created;
}

/**
 * The table stream's on-failure destination: after the retries, Lambda sends the failed batch's
 * description (shard, first and last sequence numbers), not the records; they can be re-read from
 * the stream for its 24 hours of retention, and the item itself stays in the table.
 */
export function createStreamFailureQueue(scope: Construct): Queue {
  const queue = new Queue(scope, 'TableStreamFailures', { ...secure, retentionPeriod: deadLetterRetention });
  acknowledgeDeadLetterQueueFindings(queue);
  return queue;
}

/**
 * The dead-letter queue of the event bus rules' targets: events EventBridge could not hand to a
 * function (throttled, function missing, no permission...) after its retries (185 attempts / 24 h),
 * with the error in the message attributes. Rules live in the stateless stack, so the queue allows
 * any rule of this account's service bus (by ARN pattern) instead of naming each rule's ARN, which
 * would make this stack depend on the stateless one (a cycle).
 */
export function createBusDeliveryFailureQueue(scope: Construct, bus: IEventBus): Queue {
  const queue = new Queue(scope, 'BusDeliveryFailures', { ...secure, retentionPeriod: deadLetterRetention });
  queue.addToResourcePolicy(
    new PolicyStatement({
      sid: 'AllowServiceBusRules',
      principals: [new ServicePrincipal('events.amazonaws.com')],
      actions: ['sqs:SendMessage'],
      resources: [queue.queueArn],
      conditions: { ArnLike: { 'aws:SourceArn': busRuleArnPattern(scope, bus) } },
    }),
  );
  acknowledgeBusDeliveryFailureQueueFindings(queue);
  return queue;
}

/** Every rule on `bus`: a custom bus's rules are `rule/<bus name>/<rule name>`. */
export const busRuleArnPattern = (scope: Construct, bus: IEventBus) =>
  Stack.of(scope).formatArn({ service: 'events', resource: 'rule', resourceName: `${bus.eventBusName}/*` });
