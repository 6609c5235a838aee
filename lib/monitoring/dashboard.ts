import { Aws, Duration } from 'aws-cdk-lib';
import { AlarmStatusWidget, Dashboard, GraphWidget, Stats, TextWidget, type IAlarm, type IMetric, type IWidget } from 'aws-cdk-lib/aws-cloudwatch';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { BusinessMetric, SERVICE_NAME, type BusinessMetricName } from '#shared/metrics-catalog';
import { businessMetric, failuresByCode, spendByWorkspace } from '#lib/monitoring/business-metrics';
import { queueWorker, streamConsumers, type MonitoredService } from '#lib/monitoring/monitored-service';
import { RUNBOOK_PATH } from '#lib/monitoring/runbook';

const PERIOD = Duration.minutes(5);
/** A dashboard is 24 units wide: three graphs a row. */
const GRAPH = { width: 8, height: 6 };

const heading = (markdown: string) => new TextWidget({ markdown, width: 24, height: 1 });
const graph = (title: string, left: IMetric[], right: IMetric[] = []) => new GraphWidget({ title, left, right, ...GRAPH });
const count = (name: BusinessMetricName) => businessMetric(name, PERIOD, name);

/** Messages waiting (left axis) and how long the oldest has waited (right axis). */
const queueBacklog = (title: string, queue: IQueue) =>
  graph(
    title,
    [queue.metricApproximateNumberOfMessagesVisible({ statistic: Stats.MAXIMUM, period: PERIOD, label: 'Messages waiting' })],
    [queue.metricApproximateAgeOfOldestMessage({ statistic: Stats.MAXIMUM, period: PERIOD, label: 'Oldest message (s)' })],
  );

/** Duration percentiles (left axis), errors and throttles (right axis). */
const functionHealth = (title: string, fn: IFunction) =>
  graph(
    title,
    [
      fn.metricDuration({ statistic: Stats.p(50), period: PERIOD, label: 'Duration p50 (ms)' }),
      fn.metricDuration({ statistic: Stats.p(99), period: PERIOD, label: 'Duration p99 (ms)' }),
    ],
    [
      fn.metricErrors({ statistic: Stats.SUM, period: PERIOD, label: 'Errors' }),
      fn.metricThrottles({ statistic: Stats.SUM, period: PERIOD, label: 'Throttles' }),
    ],
  );

function overviewSection(serviceAlarms: IAlarm[]): IWidget[][] {
  return [
    [
      new TextWidget({
        markdown: `# ${SERVICE_NAME}\nWhat each alarm means and what to do first: \`${RUNBOOK_PATH}\`. Per-function errors and throttles alarms are in CloudWatch > Alarms, named \`${SERVICE_NAME}-<function>Errors\` and \`…Throttles\`.`,
        width: 24,
        height: 2,
      }),
    ],
    [new AlarmStatusWidget({ title: 'Service alarms', alarms: serviceAlarms, width: 24, height: 3 })],
  ];
}

function apiSection({ api }: MonitoredService): IWidget[][] {
  const sum = { statistic: Stats.SUM, period: PERIOD };
  return [
    [heading('## API')],
    [
      graph('Requests', [api.metricCount({ ...sum, label: 'Requests' })], [count(BusinessMetric.RequestsRateLimited)]),
      graph('4xx and 5xx', [api.metricClientError({ ...sum, label: '4xx' }), api.metricServerError({ ...sum, label: '5xx' })]),
      graph('Latency (ms)', [
        api.metricLatency({ statistic: Stats.p(50), period: PERIOD, label: 'p50' }),
        api.metricLatency({ statistic: Stats.p(99), period: PERIOD, label: 'p99' }),
        api.metricIntegrationLatency({ statistic: Stats.p(99), period: PERIOD, label: 'Function p99' }),
      ]),
    ],
  ];
}

function sendPipelineSection(service: MonitoredService): IWidget[][] {
  return [
    [heading('## Send pipeline')],
    [
      graph('Messages', [count(BusinessMetric.MessagesAccepted), count(BusinessMetric.MessagesSent), count(BusinessMetric.MessagesFailed)]),
      graph('Failures by error code', [failuresByCode(PERIOD)]),
      graph('Platform throttling and paused numbers', [count(BusinessMetric.PlatformThrottled)], [count(BusinessMetric.NumbersPaused)]),
    ],
    [queueBacklog('Send queue', service.queues.send), functionHealth('Send worker', queueWorker(service, 'send'))],
  ];
}

function campaignsSection(service: MonitoredService): IWidget[][] {
  return [
    [heading('## Campaigns')],
    [
      graph('Messages fanned out', [count(BusinessMetric.CampaignMessagesFannedOut)]),
      queueBacklog('Fan-out queue', service.queues.fanout),
      functionHealth('Fan-out worker', queueWorker(service, 'fanout')),
    ],
  ];
}

function spendSection(): IWidget[][] {
  return [[heading('## Spend')], [graph("Billed spend per workspace (its card's currency)", [spendByWorkspace(PERIOD)])]];
}

function webhooksSection(service: MonitoredService): IWidget[][] {
  return [
    [heading('## Webhooks: subscriber deliveries out, platform webhooks in')],
    [
      graph('Subscriber deliveries', [count(BusinessMetric.WebhookDeliveriesSucceeded), count(BusinessMetric.WebhookDeliveriesFailed)]),
      queueBacklog('Webhook delivery queue', service.queues.webhook),
      graph(
        'Platform webhooks in',
        [count(BusinessMetric.InboundMessagesReceived)],
        [service.queues.inbound.metricApproximateNumberOfMessagesVisible({ statistic: Stats.MAXIMUM, period: PERIOD, label: 'Inbound queue' })],
      ),
    ],
  ];
}

function tableSection(service: MonitoredService): IWidget[][] {
  const { table } = service;
  return [
    [heading('## DynamoDB')],
    [
      graph('Consumed capacity units', [
        table.metricConsumedReadCapacityUnits({ statistic: Stats.SUM, period: PERIOD, label: 'Read (RCU)' }),
        table.metricConsumedWriteCapacityUnits({ statistic: Stats.SUM, period: PERIOD, label: 'Write (WCU)' }),
      ]),
      graph('Throttled requests', [table.metricThrottledRequestsForOperations({ period: PERIOD, label: 'Throttled requests' })]),
      graph(
        'Table stream: iterator age (ms)',
        streamConsumers(service).map(([name, fn]) => fn.metric('IteratorAge', { statistic: Stats.MAXIMUM, period: PERIOD, label: name })),
      ),
    ],
  ];
}

function deadLetterSection({ deadLetterQueues }: MonitoredService): IWidget[][] {
  return [
    [heading('## Dead-letter queues')],
    [
      new GraphWidget({
        title: 'Messages in dead-letter queues',
        left: deadLetterQueues.map((queue) =>
          queue.metricApproximateNumberOfMessagesVisible({ statistic: Stats.MAXIMUM, period: PERIOD, label: queue.node.id }),
        ),
        width: 24,
        height: 6,
      }),
    ],
  ];
}

/** One dashboard, top to bottom: alarms, API, send pipeline, campaigns, spend, webhooks, DynamoDB, dead-letter queues. */
export function createDashboard(scope: Construct, service: MonitoredService, serviceAlarms: IAlarm[]): Dashboard {
  // Dashboards are global to the account: the region keeps deployments in two regions apart.
  const dashboard = new Dashboard(scope, 'Dashboard', { dashboardName: `${SERVICE_NAME}-${Aws.REGION}`, defaultInterval: Duration.hours(3) });
  const rows = [
    ...overviewSection(serviceAlarms),
    ...apiSection(service),
    ...sendPipelineSection(service),
    ...campaignsSection(service),
    ...spendSection(),
    ...webhooksSection(service),
    ...tableSection(service),
    ...deadLetterSection(service),
  ];
  for (const row of rows) dashboard.addWidgets(...row);
  return dashboard;
}
