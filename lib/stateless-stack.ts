import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import { Aws, CfnOutput, CrossStackReferences, Duration, ReferenceStrength, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { HttpApi, HttpMethod, HttpRoute, HttpRouteKey, HttpStage, LogGroupLogDestination } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { HttpIamAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { grantOperatorAccess } from '#lib/operator-access';
import { mediaObjectsArn } from '#lib/stateful-stack';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule, type EventPattern, type IEventBus } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { FilterCriteria, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { Queue, type IQueue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import type { Access, Operation, Trigger } from '#shared/service/operation';
import { operations } from '#shared/service/operations';
import { queues as queueSettings, type QueueName } from '#shared/service/queues';
import { filterPattern, streamFilters } from '#shared/data/table/stream-filters';
import { ServiceFunction } from '#lib/service-function';
import { AreaStack, areaOf, areas, type Area } from '#lib/areas';
import { grantTableData, grantTableScan } from '#lib/table-access';
import { EVENT_SOURCE } from '#shared/events/event';
import { DEFAULT_GRAPH_API_VERSION } from '#shared/platform/graph-version';
import {
  acknowledgeCampaignScheduleFindings,
  acknowledgeErasureFindings,
  acknowledgeHttpRouteFindings,
  acknowledgeWorkspaceSecretsGrant,
  acknowledgeServiceFunctionFindings,
} from '#lib/nag-suppressions';

export interface StatelessStackProps extends StackProps {
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
  /**
   * Dead-letter queue of busRule targets. Its resource policy (in its own stack) already lets any
   * rule of the bus send to it; this stack adds none (see busDeliveryFailures below).
   */
  busDeliveryFailureQueue: IQueue;
  /** Copies of inbound media; access `media` reads or writes it. */
  mediaBucket: IBucket;
}

/**
 * What the trigger and access wiring below may use. What it creates for a function (route, rule,
 * role) goes in the function's own stack, its area's (fn.stack).
 */
interface Wiring {
  api: HttpApi;
  table: ITableV2;
  platformSecret: ISecret;
  queues: Record<QueueName, IQueue>;
  deadLetterQueues: Record<QueueName, IQueue>;
  streamFailureQueue: IQueue;
  eventBus: IEventBus;
  busDeliveryFailures: IQueue;
  mediaBucket: IBucket;
  /**
   * The functions of `scheduleTarget` operations, each with the role its schedules invoke it with.
   * Filled while wiring triggers, read while granting access (all triggers are wired first).
   */
  scheduleTargets: ScheduleTarget[];
  /** The function of the `tableStream` trigger with countsMessages, filled like scheduleTargets. */
  messageCounters: ServiceFunction[];
}

interface ScheduleTarget {
  fn: ServiceFunction;
  role: Role;
}

type Wire<T> = (fn: ServiceFunction, value: T, w: Wiring) => void;

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

/**
 * shared/scheduler.ts names each schedule `campaign-<campaign id>` (or `…-w<time>`), in the default group. Pseudo
 * parameters even when the stack's env is known, so the ARN (and its cdk-nag acknowledgment) is the same everywhere.
 */
const campaignSchedulesArn = `arn:${Aws.PARTITION}:scheduler:${Aws.REGION}:${Aws.ACCOUNT_ID}:schedule/default/campaign-*`;

/** One entry per access kind: the least-privilege grants and settings an operation receives. */
const grantAccess: { [K in keyof Access]-?: Wire<NonNullable<Access[K]>> } = {
  table: (fn, mode, w) => {
    grantTableData(w.table, fn, mode);
    fn.addEnvironment('TABLE_NAME', w.table.tableName);
  },
  tableStream: (fn, _on, w) => {
    // Re-reads a failed batch's records: GetShardIterator and GetRecords on this table's stream.
    w.table.grantStreamRead(fn);
    fn.addEnvironment('TABLE_NAME', w.table.tableName);
    // Counts a failed batch again only if it was the counting function's (shared/domain/outbox/stream-failures.ts).
    fn.addEnvironment('MESSAGE_COUNTING_FUNCTION', soleMessageCounter(fn, w).functionName);
  },
  platformSecrets: (fn, _on, w) => {
    w.platformSecret.grantRead(fn);
    fn.addEnvironment('PLATFORM_SECRET_ARN', w.platformSecret.secretArn);
    // A workspace's own token (contract §19) is looked up before the shared one: read, and only under the workspaces' prefix.
    grantWorkspaceSecrets(fn, ['secretsmanager:GetSecretValue', 'secretsmanager:DescribeSecret']);
  },
  workspaceSecrets: (fn) => grantWorkspaceSecrets(fn, ['secretsmanager:CreateSecret', 'secretsmanager:PutSecretValue']),
  graphApi: (fn) => {
    // Overridable so a deployment can point at a Graph API simulator or pin another API version.
    fn.addEnvironment('GRAPH_API_BASE_URL', fn.node.tryGetContext('graphApiBaseUrl') ?? 'https://graph.facebook.com');
    fn.addEnvironment('GRAPH_API_VERSION', fn.node.tryGetContext('graphApiVersion') ?? DEFAULT_GRAPH_API_VERSION);
  },
  queues: (fn, names, w) => {
    for (const name of names) {
      w.queues[name].grantSendMessages(fn);
      fn.addEnvironment(`${name.toUpperCase()}_QUEUE_URL`, w.queues[name].queueUrl);
    }
  },
  scheduler: (fn, _on, w) => {
    const target = soleScheduleTarget(fn, w);
    fn.addEnvironment('CAMPAIGN_SCHEDULE_TARGET_ARN', target.fn.functionArn);
    fn.addEnvironment('SCHEDULER_ROLE_ARN', target.role.roleArn);
    fn.addToRolePolicy(new PolicyStatement({ actions: ['scheduler:CreateSchedule', 'scheduler:DeleteSchedule'], resources: [campaignSchedulesArn] }));
    // CreateSchedule passes the target's role to Scheduler: that role only, and only to Scheduler.
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['iam:PassRole'],
        resources: [target.role.roleArn],
        conditions: { StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } },
      }),
    );
    acknowledgeCampaignScheduleFindings(fn);
  },
  media: (fn, mode, w) => {
    // Objects only, never the bucket: GetObject to sign links to copies, PutObject to store them. The objects are
    // named by workspace and message id at run time, so the grant is on the one bucket's objects (its exported ARN).
    const actions = mode === 'readWrite' ? ['s3:GetObject', 's3:PutObject'] : ['s3:GetObject'];
    fn.addToRolePolicy(new PolicyStatement({ actions, resources: [mediaObjectsArn] }));
    fn.addEnvironment('MEDIA_BUCKET', w.mediaBucket.bucketName);
    fn.addEnvironment('MEDIA_BUCKET_OWNER', Aws.ACCOUNT_ID);
  },
  bus: (fn, _on, w) => {
    // events:PutEvents on the bus's ARN only (not the default bus, not `*`).
    w.eventBus.grantPutEventsTo(fn);
    fn.addEnvironment('EVENT_BUS_NAME', w.eventBus.eventBusName);
  },
  erasure: (fn, _on, w) => {
    // Its items, whatever their record: one Scan of the table per pass (shared/data/workspace-erasure.ts).
    grantTableScan(w.table, fn);
    // A workspace's media copies: listed by its prefix (ListBucket, on the bucket) and deleted (DeleteObject, on the bucket's objects).
    fn.addToRolePolicy(new PolicyStatement({ actions: ['s3:ListBucket'], resources: [w.mediaBucket.bucketArn] }));
    fn.addToRolePolicy(new PolicyStatement({ actions: ['s3:DeleteObject'], resources: [mediaObjectsArn] }));
    fn.addEnvironment('MEDIA_BUCKET', w.mediaBucket.bucketName);
    fn.addEnvironment('MEDIA_BUCKET_OWNER', Aws.ACCOUNT_ID);
    // Its campaigns' schedules: ListSchedules has no resource-level permission; deletion only of campaign schedules.
    fn.addToRolePolicy(new PolicyStatement({ actions: ['scheduler:ListSchedules'], resources: ['*'] }));
    fn.addToRolePolicy(new PolicyStatement({ actions: ['scheduler:DeleteSchedule'], resources: [campaignSchedulesArn] }));
    // Its own secret, and no other secret of the account.
    fn.addToRolePolicy(new PolicyStatement({ actions: ['secretsmanager:DeleteSecret'], resources: [workspaceSecretsArn] }));
    fn.addEnvironment('WORKSPACE_SECRETS_PREFIX', WORKSPACE_SECRETS_PREFIX);
    acknowledgeErasureFindings(fn);
  },
};

/**
 * Workspaces' own secrets are named `messaging-api/workspaces/<workspace id>` (one deployment per
 * account and region, like the event bus), created at run time by onboarding: the functions may
 * touch those secrets only, never another secret of the account.
 */
export const WORKSPACE_SECRETS_PREFIX = 'messaging-api';
const workspaceSecretsArn = `arn:${Aws.PARTITION}:secretsmanager:${Aws.REGION}:${Aws.ACCOUNT_ID}:secret:${WORKSPACE_SECRETS_PREFIX}/workspaces/*`;

function grantWorkspaceSecrets(fn: ServiceFunction, actions: string[]): void {
  fn.addToRolePolicy(new PolicyStatement({ actions, resources: [workspaceSecretsArn] }));
  fn.addEnvironment('WORKSPACE_SECRETS_PREFIX', WORKSPACE_SECRETS_PREFIX);
  acknowledgeWorkspaceSecretsGrant(fn);
}

/** The function that counts messages from the stream: MESSAGE_COUNTING_FUNCTION names one, so there must be exactly one. */
function soleMessageCounter(fn: ServiceFunction, w: Wiring): ServiceFunction {
  if (w.messageCounters.length !== 1) {
    throw new Error(
      `${fn.node.id} has access 'tableStream', which needs exactly one 'tableStream' trigger with countsMessages in shared/service/operations.ts (found ${w.messageCounters.length})`,
    );
  }
  return w.messageCounters[0];
}

/** The schedules' target: CAMPAIGN_SCHEDULE_TARGET_ARN is one function, so there must be exactly one. */
function soleScheduleTarget(fn: ServiceFunction, w: Wiring): ScheduleTarget {
  if (w.scheduleTargets.length !== 1) {
    const found = w.scheduleTargets.map((t) => t.fn.node.id).join(', ') || 'none';
    throw new Error(
      `${fn.node.id} has access 'scheduler', which needs exactly one operation with trigger 'scheduleTarget' in shared/service/operations.ts (found: ${found})`,
    );
  }
  return w.scheduleTargets[0];
}

/** Requests per second the whole API takes, and its burst (the account's default quota is 10,000). */
const STAGE_RATE_LIMIT = 5_000;
const STAGE_BURST_LIMIT = 10_000;

/** One JSON line per request; HTTP API context variables only. */
const accessLogFormat = AccessLogFormat.custom(
  JSON.stringify({
    requestId: '$context.requestId',
    ip: '$context.identity.sourceIp',
    requestTime: '$context.requestTime',
    routeKey: '$context.routeKey',
    status: '$context.status',
    protocol: '$context.protocol',
    responseLength: '$context.responseLength',
    latencyMs: '$context.responseLatency',
    integrationLatencyMs: '$context.integrationLatency',
    integrationError: '$context.integrationErrorMessage',
    userAgent: '$context.identity.userAgent',
  }),
);

function wireTriggerOf(fn: ServiceFunction, op: Operation, w: Wiring): void {
  (wireTrigger[op.trigger.type] as Wire<Trigger>)(fn, op.trigger, w);
}

function grantAccessOf(fn: ServiceFunction, op: Operation, w: Wiring): void {
  for (const kind of Object.keys(op.access) as (keyof Access)[]) {
    const value = op.access[kind];
    if (value) (grantAccess[kind] as Wire<typeof value>)(fn, value, w);
  }
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

/**
 * The code: one Lambda per operation in shared/service/operations.ts, the HTTP API, the schedules, the event
 * source mappings, the event bus rules and the role EventBridge Scheduler invokes the schedule target with.
 * This stack holds the HTTP API (with its stage and access logs) and the outputs; each operation's function,
 * with its route, triggers and grants, is in the stack of its area, nested in this one (lib/areas.ts).
 */
export class StatelessStack extends Stack {
  readonly api: HttpApi;
  readonly functions: Record<string, ServiceFunction> = {};
  /** The nested stack of each area that has operations. */
  readonly areaStacks: Partial<Record<Area, AreaStack>> = {};

  constructor(scope: Construct, id: string, props: StatelessStackProps) {
    super(scope, id, props);
    // Strong (exports/imports): the data stack cannot be deleted, nor lose a resource, while this stack uses it.
    CrossStackReferences.of(this).consume(ReferenceStrength.STRONG);

    // Our own $default stage (not createDefaultStage) so it can have access logging.
    this.api = new HttpApi(this, 'HttpApi', { apiName: 'messaging-api', createDefaultStage: false });
    const accessLogs = new LogGroup(this, 'ApiAccessLogs', { retention: RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY });
    const stage = new HttpStage(this, 'DefaultStage', {
      httpApi: this.api,
      stageName: '$default',
      autoDeploy: true,
      // Stage-wide ceiling (contract §14), above every workspace's own limit combined in normal use;
      // each workspace's limit is the API's own (shared/http/rate-limit.ts).
      throttle: { rateLimit: STAGE_RATE_LIMIT, burstLimit: STAGE_BURST_LIMIT },
      accessLogSettings: { destination: new LogGroupLogDestination(accessLogs), format: accessLogFormat },
    });

    const { table, platformSecret, queues, streamFailureQueue, eventBus } = props;
    // A reference by ARN: the rule targets would otherwise add a statement naming each rule to the queue's
    // policy, in the data stack, which would then depend on this stack (a cycle). The queue's own policy
    // allows every rule of the bus instead (lib/work-queues.ts); referencing an imported queue adds nothing.
    const busDeliveryFailures = Queue.fromQueueArn(this, 'BusDeliveryFailures', props.busDeliveryFailureQueue.queueArn);
    const wiring: Wiring = {
      api: this.api,
      table,
      platformSecret,
      queues,
      deadLetterQueues: props.deadLetterQueues,
      streamFailureQueue,
      eventBus,
      busDeliveryFailures,
      mediaBucket: props.mediaBucket,
      scheduleTargets: [],
      messageCounters: [],
    };
    // An area's stack only if it has operations (CloudFormation refuses an empty template), in the order of lib/areas.ts.
    const areasInUse = new Set(operations.map(areaOf));
    for (const area of Object.keys(areas) as Area[]) if (areasInUse.has(area)) this.areaStacks[area] = new AreaStack(this, area);
    // Three passes, so wiring never depends on the order of shared/service/operations.ts: every function exists
    // before any trigger is wired, and every trigger (e.g. a schedule target's role) before any access.
    const built = operations.map((op) => {
      const fn = new ServiceFunction(this.areaStacks[areaOf(op)]!, op.name, {
        handlerModule: op.handler,
        timeout: op.timeoutSeconds ? Duration.seconds(op.timeoutSeconds) : undefined,
        memorySize: op.memoryMb,
        packageFiles: op.packageFiles,
      });
      this.functions[op.name] = fn;
      acknowledgeServiceFunctionFindings(fn);
      return { op, fn };
    });
    for (const { op, fn } of built) wireTriggerOf(fn, op, wiring);
    for (const { op, fn } of built) grantAccessOf(fn, op, wiring);

    grantOperatorAccess(this, this.api);

    new CfnOutput(this, 'ApiUrl', { value: stage.url });
    new CfnOutput(this, 'PlatformWebhookUrl', {
      value: `${stage.url}webhooks/whatsapp`,
      description: 'Callback URL to register in the Meta app (with the verify_token from the platform secret)',
    });
    new CfnOutput(this, 'TableName', { value: props.table.tableName });
    new CfnOutput(this, 'PlatformSecretArn', { value: props.platformSecret.secretArn });
    new CfnOutput(this, 'EventBusName', { value: eventBus.eventBusName });
  }
}
