import { App, type Environment } from 'aws-cdk-lib';
import { StatefulStack } from '#lib/stateful-stack';
import { StatelessStack } from '#lib/stateless-stack';
import { MonitoringStack } from '#lib/monitoring/monitoring-stack';
import { monitoringLevel } from '#lib/monitoring/monitoring-level';

/** Both stacks, wired together, and the monitoring nested in the compute stack; used by bin/app.ts and by the CDK tests. */
export function buildApp(app: App, env?: Environment) {
  const data = new StatefulStack(app, 'MessagingApi-Data', { env, description: 'Messaging API: table, platform secret, queues and event bus' });
  const compute = new StatelessStack(app, 'MessagingApi-Compute', {
    env,
    description: 'Messaging API: functions, HTTP API, schedules, queue/stream consumers and event bus rules',
    table: data.table,
    platformSecret: data.platformSecret,
    queues: data.queues,
    deadLetterQueues: data.deadLetterQueues,
    streamFailureQueue: data.streamFailureQueue,
    eventBus: data.eventBus,
    busDeliveryFailureQueue: data.busDeliveryFailureQueue,
    mediaBucket: data.mediaBucket,
  });
  const monitoring = new MonitoringStack(compute, 'Monitoring', {
    description: 'Messaging API: alarms, their SNS topic and (monitoring full) the dashboard',
    alarmEmail: app.node.tryGetContext('alarmEmail'),
    level: monitoringLevel(app),
    service: {
      api: compute.api,
      functions: compute.functions,
      table: data.table,
      queues: data.queues,
      deadLetterQueues: data.allDeadLetterQueues,
    },
  });
  return { data, compute, monitoring };
}

/**
 * The app built in-process with bundling skipped (seconds, no esbuild): its templates are the
 * deployed ones but for the functions' code assets. The CDK tests and the local stack's IAM model read it.
 */
export function buildAppWithoutBundling(options: { context?: Record<string, unknown>; env?: Environment } = {}) {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [], ...options.context } });
  return { app, ...buildApp(app, options.env) };
}
