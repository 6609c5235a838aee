import { CfnOutput, CrossStackReferences, Duration, ReferenceStrength, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { HttpApi, HttpStage, LogGroupLogDestination } from 'aws-cdk-lib/aws-apigatewayv2';
import { grantOperatorAccess } from '#lib/operator-access';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Queue, type IQueue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { operations } from '#shared/service/operations';
import { ServiceFunction } from '#lib/service-function';
import { AreaStack, areaOf, areas, type Area } from '#lib/areas';
import { wireTriggerOf } from '#lib/trigger-wiring';
import { grantAccessOf } from '#lib/access-grants';
import type { DataResources, Wiring } from '#lib/wiring';
import { acknowledgeServiceFunctionFindings } from '#lib/nag-suppressions';

export interface StatelessStackProps extends StackProps, DataResources {
  /**
   * Dead-letter queue of busRule targets. Its resource policy (in its own stack) already lets any
   * rule of the bus send to it; this stack adds none (see busDeliveryFailures below).
   */
  busDeliveryFailureQueue: IQueue;
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
