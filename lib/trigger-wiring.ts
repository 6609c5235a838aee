import { Duration } from 'aws-cdk-lib';
import { HttpMethod, HttpRoute, HttpRouteKey } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpIamAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { Rule, Schedule, type EventPattern } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { FilterCriteria, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { Operation, Trigger } from '#shared/service/operation';
import { queues as queueSettings } from '#shared/service/queues';
import { filterPattern, streamFilters } from '#shared/data/table/stream-filters';
import { EVENT_SOURCE } from '#shared/events/event';
import type { ServiceFunction } from '#lib/service-function';
import { acknowledgeHttpRouteFindings } from '#lib/nag-suppressions';
import type { Wire, Wiring } from '#lib/wiring';

/** One entry per trigger kind: how an operation's function gets invoked. */
const wireTrigger: { [K in Trigger['type']]: Wire<Extract<Trigger, { type: K }>> } = {
  http: (fn, t, w) => addRoute(fn, HttpRouteKey.with(t.path, HttpMethod[t.method]), w, t.operator),
  httpDefault: (fn, _t, w) => addRoute(fn, HttpRouteKey.DEFAULT, w),
  schedule: (fn, t) =>
    new Rule(fn.stack, `${fn.node.id}Schedule`, {
      schedule: Schedule.rate(Duration.minutes(t.everyMinutes)),
      targets: [new LambdaFunction(fn)],
    }),
  queue: (fn, t, w) => {
    // Lambda refuses a mapping whose function may outlive the visibility timeout (the message would be handed out twice).
    const visibility = queueSettings[t.queue].visibilityTimeoutSeconds;
    if (fn.timeout!.toSeconds() > visibility) throw new Error(`${fn.node.id}: timeout exceeds the ${t.queue} queue's visibility timeout (${visibility} s)`);
    // Grants consume (receive, delete, change visibility) on this queue to this function only.
    fn.addEventSource(
      new SqsEventSource(w.queues[t.queue], {
        batchSize: t.batchSize,
        // Handlers return batchItemFailures: only the failed messages come back, not the whole batch.
        reportBatchItemFailures: true,
        maxBatchingWindow: Duration.seconds(0), // latency over batch size
      }),
    );
  },
  deadLetters: (fn, t, w) =>
    // Consuming a dead-letter queue empties it: the consumer is what ends each job's work (there is nothing to redrive after).
    fn.addEventSource(
      new SqsEventSource(w.deadLetterQueues[t.queue], { batchSize: t.batchSize, reportBatchItemFailures: true, maxBatchingWindow: Duration.seconds(0) }),
    ),
  tableStream: (fn, t, w) => {
    if (t.countsMessages) w.messageCounters.push(fn);
    // Grants stream read (that stream's ARN only) to this function; SqsDlq grants it SendMessage on the failure queue.
    fn.addEventSource(
      new DynamoEventSource(w.table, {
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: t.batchSize,
        maxBatchingWindow: Duration.seconds(t.batchingWindowSeconds ?? 0),
        // A failing batch is split until the failing record is isolated; the rest gets through, in order per item.
        // Not the counting function's: its counts are marked per batch as received (shared/domain/outbox/counts.ts).
        bisectBatchOnError: !t.countsMessages,
        retryAttempts: 20,
        // Handlers are idempotent and fail the whole batch: re-processing earlier records is harmless.
        reportBatchItemFailures: false,
        // Records still failing after the retries are reported there instead of silently skipped.
        onFailure: new SqsDlq(w.streamFailureQueue),
        // Records the function does not read invoke nothing (an API request's rate window, for one).
        filters: streamFilters[t.reads].map((filter) => FilterCriteria.filter(filterPattern(filter))),
      }),
    );
  },
  streamFailures: (fn, t, w) =>
    fn.addEventSource(
      new SqsEventSource(w.streamFailureQueue, { batchSize: t.batchSize, reportBatchItemFailures: true, maxBatchingWindow: Duration.seconds(0) }),
    ),
  scheduleTarget: (fn, _t, w) => {
    // EventBridge Scheduler invokes targets with a role passed at CreateSchedule (no resource-based
    // permission on the function). SourceAccount: only schedules of this account may assume it.
    const role = new Role(fn.stack, `${fn.node.id}SchedulerRole`, {
      description: `Assumed by EventBridge Scheduler's one-time schedules to invoke ${fn.node.id}`,
      assumedBy: new ServicePrincipal('scheduler.amazonaws.com', { conditions: { StringEquals: { 'aws:SourceAccount': fn.stack.account } } }),
    });
    // The unqualified ARN only (what the schedules target), unlike grantInvoke() which adds `<function>:*`.
    role.addToPrincipalPolicy(new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [fn.functionArn] }));
    // Scheduler invokes asynchronously: a run failing its retries is kept (and alarmed on) with the bus's, not dropped.
    fn.configureAsyncInvoke({ retryAttempts: 2, maxEventAge: Duration.hours(6), onFailure: new SqsDestination(w.busDeliveryFailures) });
    w.scheduleTargets.push({ fn, role });
  },
  busRule: (fn, t, w) => {
    // Once Lambda has accepted an event, a failing invocation is retried twice and then kept here, not dropped.
    fn.configureAsyncInvoke({ retryAttempts: 2, maxEventAge: Duration.hours(6), onFailure: new SqsDestination(w.busDeliveryFailures) });
    new Rule(fn.stack, `${fn.node.id}BusRule`, {
      description: `Events of ${t.detailTypes.includes('*') ? 'every detail type' : t.detailTypes.join(', ')} to ${fn.node.id}`,
      eventBus: w.eventBus,
      eventPattern: busEventPattern(t.detailTypes),
      targets: [
        new LambdaFunction(fn, {
          // EventBridge's maximum: an event is retried (throttling, concurrency limits...) for up to a day,
          // then kept in the dead-letter queue instead of being dropped.
          retryAttempts: 185,
          maxEventAge: Duration.hours(24),
          deadLetterQueue: w.busDeliveryFailures,
        }),
      ],
    });
  },
};

/** The service's events of these detail types; `*` among them: all of the service's events. */
function busEventPattern(detailTypes: string[]): EventPattern {
  if (detailTypes.length === 0) throw new Error('busRule: detailTypes is empty (use ["*"] for every detail type)');
  return detailTypes.includes('*') ? { source: [EVENT_SOURCE] } : { source: [EVENT_SOURCE], detailType: [...detailTypes] };
}

/** Wires what invokes the operation's function: its trigger. */
export function wireTriggerOf(fn: ServiceFunction, op: Operation, w: Wiring): void {
  (wireTrigger[op.trigger.type] as Wire<Trigger>)(fn, op.trigger, w);
}

/**
 * The route, its integration and the permission to invoke the function, all in the function's stack; only the API is the compute stack's.
 * An operator route is IAM-authorized: the gateway admits only SigV4 requests of principals granted it (lib/operator-access.ts).
 */
function addRoute(fn: ServiceFunction, routeKey: HttpRouteKey, w: Wiring, operator?: true): void {
  const route = new HttpRoute(fn.stack, `${fn.node.id}Route`, {
    httpApi: w.api,
    routeKey,
    integration: new HttpLambdaIntegration(`${fn.node.id}Integration`, fn),
    ...(operator && { authorizer: new HttpIamAuthorizer() }),
  });
  if (!operator) acknowledgeHttpRouteFindings(route);
}
