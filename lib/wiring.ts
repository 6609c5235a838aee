import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import type { IEventBus } from 'aws-cdk-lib/aws-events';
import type { Role } from 'aws-cdk-lib/aws-iam';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { QueueName } from '#shared/service/queues';
import type { ServiceFunction } from '#lib/service-function';

/** The data stack's resources the functions are wired to and granted (lib/stateless-stack.ts receives them). */
export interface DataResources {
  /** With its stream enabled (tableStream triggers read it). */
  table: ITableV2;
  platformSecret: ISecret;
  queues: Record<QueueName, IQueue>;
  /** Each work queue's dead-letter queue: deadLetters triggers consume them. */
  deadLetterQueues: Record<QueueName, IQueue>;
  /** On-failure destination of tableStream triggers. */
  streamFailureQueue: IQueue;
  /** The service's custom bus: busRule triggers subscribe to it, access `bus` publishes to it. */
  eventBus: IEventBus;
  /** Copies of inbound media; access `media` reads or writes it. */
  mediaBucket: IBucket;
}

/**
 * What the trigger wiring (lib/trigger-wiring.ts) and the access grants (lib/access-grants.ts) may
 * use. What they create for a function (route, rule, role) goes in the function's own stack, its area's (fn.stack).
 */
export interface Wiring extends DataResources {
  api: HttpApi;
  /** The bus targets' dead-letter queue, as this stack refers to it (lib/stateless-stack.ts). */
  busDeliveryFailures: IQueue;
  /**
   * The functions of `scheduleTarget` operations, each with the role its schedules invoke it with.
   * Filled while wiring triggers, read while granting access (all triggers are wired first).
   */
  scheduleTargets: ScheduleTarget[];
  /** The function of the `tableStream` trigger with countsMessages, filled like scheduleTargets. */
  messageCounters: ServiceFunction[];
}

export interface ScheduleTarget {
  fn: ServiceFunction;
  role: Role;
}

export type Wire<T> = (fn: ServiceFunction, value: T, w: Wiring) => void;
