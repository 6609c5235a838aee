import type { IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { operations } from '#shared/service/operations';
import type { QueueName } from '#shared/service/queues';

/** What the alarms and the dashboard watch. */
export interface MonitoredService {
  api: IHttpApi;
  /** One per operation of shared/service/operations.ts, by operation name. */
  functions: Record<string, IFunction>;
  table: ITableV2;
  queues: Record<QueueName, IQueue>;
  /** Every queue where failed work ends up; each gets a depth alarm. */
  deadLetterQueues: IQueue[];
}

/** The functions that read the table's stream, by operation name. */
export function streamConsumers(service: MonitoredService): [string, IFunction][] {
  return operations.filter((op) => op.trigger.type === 'tableStream').map((op) => [op.name, service.functions[op.name]]);
}

/** The function that works a queue's jobs (its `queue` trigger in shared/service/operations.ts). */
export function queueWorker(service: MonitoredService, queue: QueueName): IFunction {
  const worker = operations.find((op) => op.trigger.type === 'queue' && op.trigger.queue === queue);
  if (!worker) throw new Error(`No operation has a 'queue' trigger on the ${queue} queue`);
  return service.functions[worker.name];
}
