import fs from 'node:fs';
import path from 'node:path';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { operations } from '#shared/service/operations';
import { BusinessMetric, METRICS_NAMESPACE, SERVICE_NAME } from '#shared/metrics-catalog';
import { headingAnchor, RUNBOOK_PATH, RunbookSection } from '#lib/monitoring/runbook';
import { projectRoot } from '#lib/service-function';
import { buildTestApp } from './synth-app';
import { flatTemplate, logicalIdOf, resolveIn, templateOf } from './templates';

type MetricStat = {
  Id: string;
  Expression?: string;
  MetricStat?: { Metric: { Namespace: string; MetricName: string; Dimensions: { Name: string; Value: unknown }[] }; Stat: string };
};

/** The `full` level: every alarm and the dashboard; the default `essential` level is checked on its own below. */
const { data, compute, monitoring } = buildTestApp({ context: { monitoring: 'full' } });
const monitoringTemplate = Template.fromStack(monitoring);
const monitoringResources = templateOf(monitoring).Resources;

const dataId = logicalIdOf;
/** A resource of the compute stack or of an area's stack nested in it (their logical ids are unique across them). */
const computeId = logicalIdOf;
const topicRef = () => ({ Ref: logicalIdOf(monitoring.alarmTopic) });

/**
 * A value as the monitoring stack receives it (parameters its parent passes), resolved to what the
 * data stack, the compute stack or an area's stack refers to.
 */
const resolve = (value: unknown): unknown => resolveIn(monitoring, value, { imports: true });

const alarms = Object.entries(monitoringResources).filter(([, r]) => r.Type === 'AWS::CloudWatch::Alarm');
const alarmNamed = (name: string) => {
  const found = alarms.filter(([, r]) => r.Properties.AlarmName === `${SERVICE_NAME}-${name}`);
  expect(found).toHaveLength(1);
  return found[0][1].Properties;
};
/** Alarms on one metric (not metric math) with this name and a dimension that resolves to `dimension`. */
const alarmsOnMetric = (metricName: string, dimension: unknown) =>
  alarms.filter(
    ([, r]) =>
      r.Properties.MetricName === metricName &&
      r.Properties.Dimensions?.some((d: { Value: unknown }) => JSON.stringify(resolve(d.Value)) === JSON.stringify(dimension)),
  );
/** The metric-math alarm's input metrics, as namespace/name. */
const inputsOf = (props: Record<string, any>) =>
  (props.Metrics as MetricStat[])
    .filter((m) => m.MetricStat)
    .map((m) => `${m.MetricStat!.Metric.Namespace}/${m.MetricStat!.Metric.MetricName}`)
    .sort();

describe('alarms', () => {
  test('every queue of the data stack that is not a work queue (so: every dead-letter queue) has one depth alarm, threshold 0', () => {
    const workQueues = Object.values(data.queues).map(dataId);
    const deadLetterQueueIds = Object.entries(templateOf(data).Resources)
      .filter(([id, r]) => r.Type === 'AWS::SQS::Queue' && !workQueues.includes(id))
      .map(([id]) => id);
    expect(deadLetterQueueIds.sort()).toEqual(data.allDeadLetterQueues.map(dataId).sort());
    expect(deadLetterQueueIds).toHaveLength(Object.keys(data.queues).length + 2);
    for (const id of deadLetterQueueIds) {
      const found = alarmsOnMetric('ApproximateNumberOfMessagesVisible', { 'Fn::GetAtt': [id, 'QueueName'] });
      expect(found).toHaveLength(1);
      expect(found[0][1].Properties).toMatchObject({
        Namespace: 'AWS/SQS',
        Statistic: 'Maximum',
        Period: 60,
        EvaluationPeriods: 1,
        Threshold: 0,
        ComparisonOperator: 'GreaterThanThreshold',
      });
    }
  });

  test.each(operations.map((op) => [op.name]))('%s has an errors and a throttles alarm', (name) => {
    const fn = { Ref: computeId(compute.functions[name]) };
    for (const metricName of ['Errors', 'Throttles']) {
      const found = alarmsOnMetric(metricName, fn);
      expect(found).toHaveLength(1);
      expect(found[0][1].Properties).toMatchObject({
        Namespace: 'AWS/Lambda',
        Statistic: 'Sum',
        Period: 300,
        Threshold: 0,
        EvaluationPeriods: 3,
        DatapointsToAlarm: 2,
      });
    }
  });

  test('each table stream consumer has an iterator age alarm (over 60 s for 5 minutes), and no other function has one', () => {
    const streamConsumers = operations.filter((op) => op.trigger.type === 'tableStream');
    expect(streamConsumers.length).toBeGreaterThan(0);
    for (const op of streamConsumers) {
      const found = alarmsOnMetric('IteratorAge', { Ref: computeId(compute.functions[op.name]) });
      expect(found).toHaveLength(1);
      expect(found[0][1].Properties).toMatchObject({ Statistic: 'Maximum', Period: 60, EvaluationPeriods: 5, Threshold: 60_000 });
    }
    expect(alarms.filter(([, r]) => r.Properties.MetricName === 'IteratorAge')).toHaveLength(streamConsumers.length);
  });

  test('the API 5xx rate is 5xx over the requests of this API, above 1%', () => {
    const props = alarmNamed('ApiServerErrorRate');
    expect(inputsOf(props)).toEqual(['AWS/ApiGateway/5xx', 'AWS/ApiGateway/Count']);
    for (const metric of props.Metrics as MetricStat[]) {
      if (metric.MetricStat) expect(resolve(metric.MetricStat.Metric.Dimensions[0].Value)).toEqual({ Ref: computeId(compute.api) });
    }
    expect(props).toMatchObject({ Threshold: 1, EvaluationPeriods: 3, DatapointsToAlarm: 2 });
  });

  test.each([
    ['SendFailureRate', [BusinessMetric.MessagesFailed, BusinessMetric.MessagesSent], 10],
    ['WebhookDeliveryFailureRate', [BusinessMetric.WebhookDeliveriesFailed, BusinessMetric.WebhookDeliveriesSucceeded], 20],
    ['PlatformThrottleRate', [BusinessMetric.PlatformThrottled, BusinessMetric.MessagesSent], 10],
  ])('%s is a percentage of the catalog metrics %j, above %d%%, over quiet periods not at all', (name, metricNames, threshold) => {
    const props = alarmNamed(name);
    expect(inputsOf(props)).toEqual(metricNames.map((m) => `${METRICS_NAMESPACE}/${m}`).sort());
    for (const metric of props.Metrics as MetricStat[]) {
      if (metric.MetricStat) expect(metric.MetricStat).toMatchObject({ Stat: 'Sum', Metric: { Dimensions: [{ Name: 'service', Value: SERVICE_NAME }] } });
    }
    const [expression] = (props.Metrics as MetricStat[]).filter((m) => m.Expression);
    expect(expression.Expression).toMatch(/^IF\(.* >= 20, 100 \* FILL\(\w+, 0\) \/ \(.*\), 0\)$/);
    expect(props).toMatchObject({ Threshold: threshold, EvaluationPeriods: 3 });
  });

  test('a paused number alarms at once', () => {
    expect(alarmNamed('NumbersPaused')).toMatchObject({
      Namespace: METRICS_NAMESPACE,
      MetricName: BusinessMetric.NumbersPaused,
      Dimensions: [{ Name: 'service', Value: SERVICE_NAME }],
      Statistic: 'Sum',
      Threshold: 0,
      EvaluationPeriods: 1,
    });
  });

  test('no alarms besides those: dead-letter queues, two per function, stream consumers, four rates and paused numbers', () => {
    const streamConsumers = operations.filter((op) => op.trigger.type === 'tableStream').length;
    expect(alarms).toHaveLength(data.allDeadLetterQueues.length + 2 * operations.length + streamConsumers + 4 + 1);
  });

  test('every alarm notifies the topic, ignores missing data, has a unique service-prefixed name and a description', () => {
    for (const [, alarm] of alarms) {
      expect(alarm.Properties).toMatchObject({
        AlarmActions: [topicRef()],
        TreatMissingData: 'notBreaching',
        ComparisonOperator: 'GreaterThanThreshold',
        AlarmName: expect.stringMatching(new RegExp(`^${SERVICE_NAME}-\\w+$`)),
      });
    }
    expect(new Set(alarms.map(([, r]) => r.Properties.AlarmName)).size).toBe(alarms.length);
  });
});

/** The default level, built once with an alarm e-mail too (an e-mail subscription is not an alarm): each app synthesized costs seconds. */
const essential = buildTestApp({ context: { alarmEmail: 'ops@example.com' } });

describe('the essential level (the default)', () => {
  const template = templateOf(essential.monitoring).Resources;
  const essentialAlarms = Object.values(template).filter((r) => r.Type === 'AWS::CloudWatch::Alarm');
  const named = (name: string) => essentialAlarms.find((r) => r.Properties.AlarmName === `${SERVICE_NAME}-${name}`)?.Properties;
  /** CloudWatch bills an alarm per metric it reads: a metric-math alarm's inputs each count. */
  const billedMetrics = essentialAlarms.reduce(
    (sum, r) => sum + ((r.Properties.Metrics as MetricStat[] | undefined)?.filter((m) => m.MetricStat).length ?? 1),
    0,
  );

  test('keeps at most 25 alarms and no dashboard', () => {
    expect(essentialAlarms.length).toBeLessThanOrEqual(25);
    expect(Object.values(template).filter((r) => r.Type === 'AWS::CloudWatch::Dashboard')).toHaveLength(0);
    // docs/deploy.md prices them: $0.10 a metric a month.
    expect(billedMetrics).toBe(18);
  });

  test('pages on dead letters, stuck streams and fan-outs, 5xx, throttles, failing sends and webhooks', () => {
    const streamConsumers = operations.filter((op) => op.trigger.type === 'tableStream').length;
    expect(essentialAlarms.filter((r) => r.Properties.MetricName === 'ApproximateNumberOfMessagesVisible')).toHaveLength(
      essential.data.allDeadLetterQueues.length,
    );
    expect(essentialAlarms.filter((r) => r.Properties.MetricName === 'IteratorAge')).toHaveLength(streamConsumers);
    for (const name of ['ApiServerErrorRate', 'SendFailureRate', 'WebhookDeliveryFailureRate']) expect(named(name)).toBeDefined();
    expect(named('FunctionThrottles')).toMatchObject({ Namespace: 'AWS/Lambda', MetricName: 'Throttles', Statistic: 'Sum', Threshold: 0 });
    expect(named('FunctionThrottles')?.Dimensions).toBeUndefined();
    expect(named('CampaignFanoutStuck')).toMatchObject({ Namespace: 'AWS/SQS', MetricName: 'ApproximateAgeOfOldestMessage', Threshold: 900 });
    expect(essentialAlarms.filter((r) => r.Properties.MetricName === 'Errors')).toHaveLength(0);
  });

  test('refuses an unknown level', () => {
    expect(() => buildTestApp({ context: { monitoring: 'some' } })).toThrow(/monitoring.*essential, full/);
  });
});

describe('runbook', () => {
  const runbook = fs.readFileSync(path.join(projectRoot, RUNBOOK_PATH), 'utf8');
  const anchors = new Set([...runbook.matchAll(/^#+ (.+)$/gm)].map((m) => headingAnchor(m[1])));

  test.each(Object.values(RunbookSection).map((heading) => [heading]))('has the section "%s"', (heading) => {
    expect(anchors).toContain(headingAnchor(heading));
  });

  test('every alarm description points to a section of the runbook', () => {
    for (const [, alarm] of alarms) {
      const link = /Runbook: (\S+)#(\S+)$/.exec(alarm.Properties.AlarmDescription);
      expect(link?.[1]).toBe(RUNBOOK_PATH);
      expect(anchors).toContain(link?.[2]);
    }
  });
});

describe('alarm topic', () => {
  test("one topic, TLS-only, that this service's alarms may publish to", () => {
    monitoringTemplate.resourceCountIs('AWS::SNS::Topic', 1);
    monitoringTemplate.hasResourceProperties('AWS::SNS::TopicPolicy', {
      Topics: [topicRef()],
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Action: 'sns:Publish', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
          Match.objectLike({
            Effect: 'Allow',
            Principal: { Service: 'cloudwatch.amazonaws.com' },
            Action: 'sns:Publish',
            Resource: topicRef(),
            Condition: Match.objectLike({ StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } } }),
          }),
        ]),
      },
    });
  });

  test('no subscription unless the alarmEmail context is set', () => {
    monitoringTemplate.resourceCountIs('AWS::SNS::Subscription', 0);
  });

  test('alarmEmail subscribes that address by email', () => {
    const withEmail = essential.monitoring;
    const template = Template.fromStack(withEmail);
    template.resourceCountIs('AWS::SNS::Subscription', 1);
    template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'ops@example.com',
      TopicArn: { Ref: logicalIdOf(withEmail.alarmTopic) },
    });
  });
});

describe('dashboard', () => {
  test('one dashboard in the whole app, with a section per part of the service', () => {
    monitoringTemplate.resourceCountIs('AWS::CloudWatch::Dashboard', 1);
    Template.fromJSON(flatTemplate(compute, Object.values(compute.areaStacks))).resourceCountIs('AWS::CloudWatch::Dashboard', 0);
    Template.fromStack(data).resourceCountIs('AWS::CloudWatch::Dashboard', 0);
    const body = JSON.stringify(Object.values(monitoringTemplate.findResources('AWS::CloudWatch::Dashboard'))[0].Properties.DashboardBody);
    for (const section of ['## API', '## Send pipeline', '## Campaigns', '## Spend', '## Webhooks', '## DynamoDB', '## Dead-letter queues'])
      expect(body).toContain(section);
    for (const metric of Object.values(BusinessMetric)) expect(body).toMatch(new RegExp(`\\b${metric}\\b`));
  });
});

describe('placement', () => {
  // Sizes of every stack: test/cdk/stack-sizes.test.ts.
  test('the monitoring is one resource of the compute stack, and no alarm is anywhere else', () => {
    expect(monitoring.nestedStackParent).toBe(compute);
    const nestedStacks = Object.values(templateOf(compute).Resources).filter((r) => r.Type === 'AWS::CloudFormation::Stack');
    expect(nestedStacks).toHaveLength(Object.keys(compute.areaStacks).length + 1);
    for (const stack of [data, compute, ...Object.values(compute.areaStacks)]) Template.fromStack(stack).resourceCountIs('AWS::CloudWatch::Alarm', 0);
  });
});

describe('request limits', () => {
  test('the stage has a stage-wide throttle', () => {
    Template.fromStack(compute).hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      DefaultRouteSettings: Match.objectLike({ ThrottlingRateLimit: 5000, ThrottlingBurstLimit: 10000 }),
    });
  });
});
