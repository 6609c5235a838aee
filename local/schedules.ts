import type { ScheduledEvent } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import { localWiring } from '#local/triggers';
import { loadHandler } from '#local/handlers';
import { lambdaContext } from '#local/lambda-context';

function scheduledEvent(ruleName: string): ScheduledEvent {
  return {
    version: '0',
    id: randomUUID(),
    'detail-type': 'Scheduled Event',
    source: 'aws.events',
    account: '000000000000',
    time: new Date().toISOString(),
    region: 'us-east-1',
    resources: [`arn:aws:events:us-east-1:000000000000:rule/${ruleName}`],
    detail: {},
  };
}

/** EventBridge schedule rules, locally: each schedule operation runs once now and then at its rate. */
export async function startSchedules(): Promise<{ stop(): void }> {
  const timers: NodeJS.Timeout[] = [];
  for (const operation of localWiring.schedules) {
    const handler = await loadHandler(operation);
    const run = () =>
      handler(scheduledEvent(operation.name), lambdaContext(operation.name, operation.timeoutSeconds)).catch((error) =>
        console.error(`${operation.name} failed`, error),
      );
    await run();
    timers.push(setInterval(() => void run(), operation.trigger.everyMinutes * 60_000));
  }
  return { stop: () => timers.forEach(clearInterval) };
}
