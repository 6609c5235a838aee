import type { App, Environment } from 'aws-cdk-lib';
import { StatefulStack } from '#lib/stateful-stack';
import { StatelessStack } from '#lib/stateless-stack';

/** Both stacks, wired together; used by bin/app.ts and by the CDK tests. */
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
  return { data, compute };
}
