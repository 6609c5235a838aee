import { Duration } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, MathExpression, Metric, Stats, TreatMissingData, type IAlarmAction, type IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import type { IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { BusinessMetric, SERVICE_NAME, type BusinessMetricName } from '#shared/metrics-catalog';
import { businessMetric } from '#lib/monitoring/business-metrics';
import { streamConsumers, type MonitoredService } from '#lib/monitoring/monitored-service';
import { RunbookSection, runbookLink, type RunbookHeading } from '#lib/monitoring/runbook';
import type { MonitoringLevel } from '#lib/monitoring/monitoring-level';

/** Where alarms are created and whom they notify. */
export interface AlarmTarget {
  scope: Construct;
  action: IAlarmAction;
}

interface AlarmSpec {
  /** Construct id, and the alarm's name after the service prefix. */
  id: string;
  metric: IMetric;
  /** Alarms when the metric is above this. */
  threshold: number;
  evaluationPeriods: number;
  /** How many of the evaluated periods must breach; all of them by default. */
  datapointsToAlarm?: number;
  /** What a breach means, for whoever reads the notification. */
  meaning: string;
  runbook: RunbookHeading;
}

const ONE_MINUTE = Duration.minutes(1);
const FIVE_MINUTES = Duration.minutes(5);

/** Rates are judged per 5 minutes, and only over this many events: 2 failures out of 5 sends are not a trend. */
const RATE_PERIOD = FIVE_MINUTES;
const MIN_EVENTS_FOR_A_RATE = 20;

/** The stream consumers normally run a second or two behind; a minute behind for five minutes is a stuck or failing batch. */
const MAX_ITERATOR_AGE_MS = 60_000;

function createAlarm({ scope, action }: AlarmTarget, spec: AlarmSpec): Alarm {
  const alarm = new Alarm(scope, spec.id, {
    alarmName: `${SERVICE_NAME}-${spec.id}`,
    alarmDescription: `${spec.meaning} Runbook: ${runbookLink(spec.runbook)}`,
    metric: spec.metric,
    threshold: spec.threshold,
    comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
    evaluationPeriods: spec.evaluationPeriods,
    datapointsToAlarm: spec.datapointsToAlarm,
    // No data means nothing happened (no job failed, nothing was sent): never a reason to alarm.
    treatMissingData: TreatMissingData.NOT_BREACHING,
  });
  alarm.addAlarmAction(action);
  return alarm;
}

/**
 * `part` as a percentage of the sum of `whole`, per RATE_PERIOD; 0 in periods with fewer than
 * MIN_EVENTS_FOR_A_RATE events. A metric's empty periods count as 0 (FILL): a period with
 * failures and no successes still has a rate.
 */
function percentage(label: string, metrics: Record<string, IMetric>, part: string, whole: string[]): MathExpression {
  const filled = (id: string) => `FILL(${id}, 0)`;
  const total = whole.map(filled).join(' + ');
  return new MathExpression({
    expression: `IF(${total} >= ${MIN_EVENTS_FOR_A_RATE}, 100 * ${filled(part)} / (${total}), 0)`,
    usingMetrics: metrics,
    period: RATE_PERIOD,
    label,
  });
}

const sum = (name: BusinessMetricName) => businessMetric(name, RATE_PERIOD);

/** One per queue where failed work ends up: anything there is work that gave up (or a consumer of it that is failing). */
function deadLetterQueueAlarms(target: AlarmTarget, queues: IQueue[]): Alarm[] {
  return queues.map((queue) =>
    createAlarm(target, {
      id: `${queue.node.id}Depth`,
      // Maximum over one minute: the send and fan-out dead-letter queues are consumed within seconds, and should still be seen.
      metric: queue.metricApproximateNumberOfMessagesVisible({ statistic: Stats.MAXIMUM, period: ONE_MINUTE }),
      threshold: 0,
      evaluationPeriods: 1,
      meaning: `${queue.node.id} has messages: work that failed on every retry ended there.`,
      runbook: RunbookSection.deadLetters,
    }),
  );
}

/**
 * Errors and throttles of each function. Two of three 5-minute periods: a lone time-out does not
 * page anyone, anything that keeps happening does within 10 to 15 minutes.
 */
function errorAndThrottleAlarms(target: AlarmTarget, functions: Record<string, IFunction>): Alarm[] {
  return Object.entries(functions).flatMap(([name, fn]) => [
    createAlarm(target, {
      id: `${name}Errors`,
      metric: fn.metricErrors({ statistic: Stats.SUM, period: FIVE_MINUTES }),
      threshold: 0,
      evaluationPeriods: 3,
      datapointsToAlarm: 2,
      meaning: `${name} ended invocations with an error (uncaught exception, time-out, out of memory) in two of the last three 5-minute periods.`,
      runbook: RunbookSection.functionErrors,
    }),
    createAlarm(target, {
      id: `${name}Throttles`,
      metric: fn.metricThrottles({ statistic: Stats.SUM, period: FIVE_MINUTES }),
      threshold: 0,
      evaluationPeriods: 3,
      datapointsToAlarm: 2,
      meaning: `Lambda refused to run ${name} (concurrency exhausted) in two of the last three 5-minute periods.`,
      runbook: RunbookSection.functionThrottles,
    }),
  ]);
}

/** How far behind the table stream each stream consumer reads: sends, fan-outs and events all wait on them. */
function streamIteratorAgeAlarms(target: AlarmTarget, consumers: [string, IFunction][]): Alarm[] {
  return consumers.map(([name, fn]) =>
    createAlarm(target, {
      id: `${name}IteratorAge`,
      metric: fn.metric('IteratorAge', { statistic: Stats.MAXIMUM, period: ONE_MINUTE }),
      threshold: MAX_ITERATOR_AGE_MS,
      evaluationPeriods: 5,
      meaning: `${name} has read the table stream more than ${MAX_ITERATOR_AGE_MS / 1000} s behind for 5 minutes: a batch keeps failing or the function cannot keep up.`,
      runbook: RunbookSection.streamIteratorAge,
    }),
  );
}

/** 5xx answers of the HTTP API: the functions catch every expected error, so a 5xx is a crash, a time-out or a failing dependency. */
function apiServerErrorRateAlarm(target: AlarmTarget, api: IHttpApi): Alarm {
  return createAlarm(target, {
    id: 'ApiServerErrorRate',
    metric: percentage(
      '5xx, % of requests',
      { serverErrors: api.metricServerError({ statistic: Stats.SUM }), requests: api.metricCount({ statistic: Stats.SUM }) },
      'serverErrors',
      ['requests'],
    ),
    threshold: 1,
    evaluationPeriods: 3,
    datapointsToAlarm: 2,
    meaning: `More than 1% of API requests were answered 5xx in two of the last three 5-minute periods (periods under ${MIN_EVENTS_FOR_A_RATE} requests not counted).`,
    runbook: RunbookSection.apiServerErrors,
  });
}

/** Messages that ended `failed`, against all that ended either way. */
function sendFailureRateAlarm(target: AlarmTarget): Alarm {
  return createAlarm(target, {
    id: 'SendFailureRate',
    metric: percentage('Failed, % of finished sends', { failed: sum(BusinessMetric.MessagesFailed), sent: sum(BusinessMetric.MessagesSent) }, 'failed', [
      'failed',
      'sent',
    ]),
    threshold: 10,
    evaluationPeriods: 3,
    meaning: `More than 10% of messages ended failed, for 15 minutes (periods under ${MIN_EVENTS_FOR_A_RATE} messages not counted).`,
    runbook: RunbookSection.sendFailures,
  });
}

/** Delivery attempts to subscribers' endpoints that failed. */
function webhookDeliveryFailureRateAlarm(target: AlarmTarget): Alarm {
  return createAlarm(target, {
    id: 'WebhookDeliveryFailureRate',
    metric: percentage(
      'Failed, % of webhook delivery attempts',
      { failed: sum(BusinessMetric.WebhookDeliveriesFailed), succeeded: sum(BusinessMetric.WebhookDeliveriesSucceeded) },
      'failed',
      ['failed', 'succeeded'],
    ),
    threshold: 20,
    evaluationPeriods: 3,
    meaning: `More than 20% of webhook delivery attempts failed, for 15 minutes (periods under ${MIN_EVENTS_FOR_A_RATE} attempts not counted).`,
    runbook: RunbookSection.webhookDeliveryFailures,
  });
}

/** The platform's "slow down" answers against accepted sends: the pacing adapts to a few, not to a sustained share. */
function platformThrottleRateAlarm(target: AlarmTarget): Alarm {
  return createAlarm(target, {
    id: 'PlatformThrottleRate',
    metric: percentage(
      'Throttled, % of platform answers',
      { throttled: sum(BusinessMetric.PlatformThrottled), sent: sum(BusinessMetric.MessagesSent) },
      'throttled',
      ['throttled', 'sent'],
    ),
    threshold: 10,
    evaluationPeriods: 3,
    meaning: `More than 10% of the platform's answers asked to slow down (429, 130429, 131056, 80007...), for 15 minutes (periods under ${MIN_EVENTS_FOR_A_RATE} answers not counted).`,
    runbook: RunbookSection.platformThrottling,
  });
}

/** A number paused on an account-level error (contract §16): none of its messages go out until a probe succeeds. */
function numbersPausedAlarm(target: AlarmTarget): Alarm {
  return createAlarm(target, {
    id: 'NumbersPaused',
    metric: sum(BusinessMetric.NumbersPaused),
    threshold: 0,
    evaluationPeriods: 1,
    meaning: 'A business number paused its sending on an account-level platform error (token, permissions, account or payment).',
    runbook: RunbookSection.numbersPaused,
  });
}

/**
 * Lambda refusing to run any function of the account and region (concurrency exhausted): one
 * alarm on the account's metric instead of one per function (the `essential` level).
 */
function accountThrottlesAlarm(target: AlarmTarget): Alarm {
  return createAlarm(target, {
    id: 'FunctionThrottles',
    metric: new Metric({ namespace: 'AWS/Lambda', metricName: 'Throttles', statistic: Stats.SUM, period: FIVE_MINUTES }),
    threshold: 0,
    evaluationPeriods: 3,
    datapointsToAlarm: 2,
    meaning: 'Lambda refused to run functions of this account and region (concurrency exhausted) in two of the last three 5-minute periods.',
    runbook: RunbookSection.functionThrottles,
  });
}

/** A campaign's fan-out job normally waits seconds; one waiting 15 minutes keeps failing, and its campaign is stuck. */
const MAX_FANOUT_AGE_SECONDS = 15 * 60;

function campaignFanoutStuckAlarm(target: AlarmTarget, fanout: IQueue): Alarm {
  return createAlarm(target, {
    id: 'CampaignFanoutStuck',
    metric: fanout.metricApproximateAgeOfOldestMessage({ statistic: Stats.MAXIMUM, period: FIVE_MINUTES }),
    threshold: MAX_FANOUT_AGE_SECONDS,
    evaluationPeriods: 2,
    meaning: `A campaign fan-out job has waited more than ${MAX_FANOUT_AGE_SECONDS / 60} minutes for 10 minutes: a campaign is stuck on a failing chunk.`,
    runbook: RunbookSection.fanoutStuck,
  });
}

export interface ServiceAlarms {
  /** Dead-letter queues, stream, API and business alarms: few enough for one status widget. */
  serviceAlarms: Alarm[];
  /** Errors and throttles, two per function (`full` only). */
  functionAlarms: Alarm[];
}

/** The alarms that page someone, for every level: work given up, stuck streams, 5xx, sends and webhooks failing. */
const pagingAlarms = (target: AlarmTarget, service: MonitoredService): Alarm[] => [
  ...deadLetterQueueAlarms(target, service.deadLetterQueues),
  ...streamIteratorAgeAlarms(target, streamConsumers(service)),
  apiServerErrorRateAlarm(target, service.api),
  sendFailureRateAlarm(target),
  webhookDeliveryFailureRateAlarm(target),
];

export function createAlarms(target: AlarmTarget, service: MonitoredService, level: MonitoringLevel): ServiceAlarms {
  if (level === 'essential')
    return {
      serviceAlarms: [...pagingAlarms(target, service), accountThrottlesAlarm(target), campaignFanoutStuckAlarm(target, service.queues.fanout)],
      functionAlarms: [],
    };
  return {
    serviceAlarms: [...pagingAlarms(target, service), platformThrottleRateAlarm(target), numbersPausedAlarm(target)],
    functionAlarms: errorAndThrottleAlarms(target, service.functions),
  };
}
