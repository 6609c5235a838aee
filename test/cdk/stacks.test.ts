import { Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import type { Operation, Trigger } from '#shared/service/operation';
import { operations } from '#shared/service/operations';
import { queues, type QueueName } from '#shared/service/queues';
import { DEFAULT_GRAPH_API_VERSION } from '#shared/platform/graph-version';
import { createTableInput, indexes, table } from '#shared/data/table/table';
import { passesStreamFilters } from '#shared/data/table/stream-filters';
import { messageCountsKey } from '#shared/data/message-counts';
import { messageKey } from '#shared/data/message';
import { campaignKey } from '#shared/data/campaign';
import { contactKey } from '#shared/data/contact';
import { templateKey } from '#shared/data/template';
import { rateWindowKey } from '#shared/data/rate-window';
import { areaOf, areas } from '#lib/areas';
import type { StatelessStack } from '#lib/stateless-stack';
import { buildTestApp } from './synth-app';
import { flatTemplate, logicalIdOf, templateOf, type Resource } from './templates';

type Statement = { Effect?: string; Action: string | string[]; Resource: unknown; Condition?: unknown; Principal?: unknown };

const { data, compute } = buildTestApp();
const dataTemplate = Template.fromStack(data);
/**
 * The compute stack with its areas' nested stacks (lib/areas.ts) as one template: what is asserted
 * of the functions, routes, triggers and grants holds whichever area's stack they are in. The
 * layout itself is asserted under 'one nested stack per area'.
 */
const computeTemplateOf = (stack: StatelessStack) => Template.fromJSON(flatTemplate(stack, Object.values(stack.areaStacks)));
const computeTemplate = computeTemplateOf(compute);
const computeResources = computeTemplate.toJSON().Resources as Record<string, Resource>;
const dataResources = dataTemplate.toJSON().Resources as Record<string, Resource>;
const dataOutputs = dataTemplate.toJSON().Outputs as Record<string, { Value: unknown; Export?: { Name: string } }>;

/** A data-stack resource as the compute stack sees it: `Fn::ImportValue` resolved to the exported value. */
const resolveImport = (value: any): unknown =>
  value?.['Fn::ImportValue'] ? Object.values(dataOutputs).find((o) => o.Export?.Name === value['Fn::ImportValue'])?.Value : value;
const dataId = (construct: IConstruct) => logicalIdOf(construct);
const arnOf = (construct: IConstruct) => ({ 'Fn::GetAtt': [dataId(construct), 'Arn'] });
const tableStreamArn = () => ({ 'Fn::GetAtt': [dataId(data.table), 'StreamArn'] });
const days = (n: number) => n * 24 * 60 * 60;

const logicalId = (op: Operation) => logicalIdOf(compute.functions[op.name]);
const functionResource = (op: Operation) => computeResources[logicalId(op)];
const envOf = (op: Operation): Record<string, unknown> => functionResource(op).Properties.Environment.Variables;
const asArray = <T>(value: T | T[]): T[] => (Array.isArray(value) ? value : [value]);

/** Every statement of the function's role policies. */
function statementsOf(op: Operation): Statement[] {
  const roleId = functionResource(op).Properties.Role['Fn::GetAtt'][0];
  return Object.values(computeResources)
    .filter((r) => r.Type === 'AWS::IAM::Policy' && r.Properties.Roles.some((role: { Ref: string }) => role.Ref === roleId))
    .flatMap((r) => r.Properties.PolicyDocument.Statement);
}
const actionsOf = (op: Operation) => statementsOf(op).flatMap((s) => asArray(s.Action));
/** The (resolved) resources on which the function's role allows `action`. */
const resourcesAllowing = (op: Operation, action: string) =>
  statementsOf(op)
    .filter((s) => asArray(s.Action).includes(action))
    .flatMap((s) => asArray(s.Resource).map(resolveImport));
const mappingsOf = (op: Operation) =>
  Object.values(computeResources).filter((r) => r.Type === 'AWS::Lambda::EventSourceMapping' && r.Properties.FunctionName.Ref === logicalId(op));
const queueUrlEnv = (name: QueueName) => `${name.toUpperCase()}_QUEUE_URL`;

const routeKeyOf = (trigger: Trigger) =>
  trigger.type === 'http' ? `${trigger.method} ${trigger.path}` : trigger.type === 'httpDefault' ? '$default' : undefined;
const httpOperations = operations.filter((op) => routeKeyOf(op.trigger));
const scheduledOperations = operations.filter((op) => op.trigger.type === 'schedule');
type QueueTrigger = Extract<Trigger, { type: 'queue' }>;
type StreamTrigger = Extract<Trigger, { type: 'tableStream' }>;
const queueOperations = operations.filter((op) => op.trigger.type === 'queue');
const deadLetterOperations = operations.filter((op) => op.trigger.type === 'deadLetters');
const streamOperations = operations.filter((op) => op.trigger.type === 'tableStream');
const streamFailureOperations = operations.filter((op) => op.trigger.type === 'streamFailures');
const byName = (name: string) => operations.find((op) => op.name === name)!;
const operationNamesAtLoad = operations.map((op) => op.name);
const scheduleTargetOperations = operations.filter((op) => op.trigger.type === 'scheduleTarget');
const schedulerOperations = operations.filter((op) => op.access.scheduler);
type BusRuleTrigger = Extract<Trigger, { type: 'busRule' }>;
const busRuleOperations = operations.filter((op) => op.trigger.type === 'busRule');
const busPublishers = operations.filter((op) => op.access.bus);
const eventBusRef = () => ({ Ref: dataId(data.eventBus) });
/** The rules on a custom bus (schedules have no EventBusName: they are on the default bus). */
const busRulesIn = (resources: Record<string, Resource>) =>
  Object.entries(resources).filter(([, r]) => r.Type === 'AWS::Events::Rule' && r.Properties.EventBusName !== undefined);
const functionArn = (functionId: string) => ({ 'Fn::GetAtt': [functionId, 'Arn'] });
/** The bus rules whose targets include the function. */
const busRulesTargeting = (resources: Record<string, Resource>, functionId: string) =>
  busRulesIn(resources).filter(([, r]) =>
    (r.Properties.Targets as { Arn: unknown }[]).some((t) => JSON.stringify(t.Arn) === JSON.stringify(functionArn(functionId))),
  );

const OPERATOR_PRINCIPALS = 'arn:aws:iam::123456789012:role/Ops, arn:aws:iam::123456789012:user/alice';
let overridden: ReturnType<typeof buildTestApp> | undefined;
/** One app with every context override the tests read (the operator's principals, the Graph API's base URL and version), synthesized once. */
const overriddenApp = () =>
  (overridden ??= buildTestApp({
    context: { operatorPrincipals: OPERATOR_PRINCIPALS, graphApiBaseUrl: 'http://simulator.internal', graphApiVersion: 'v99.0' },
  }));

/** Synthesizes the app with shared/service/operations.ts changed by `change`, then puts it back. */
function buildWithOperations(change: (ops: Operation[]) => void) {
  const saved = [...operations];
  try {
    change(operations);
    return buildTestApp();
  } finally {
    operations.splice(0, operations.length, ...saved);
  }
}
/** Roles EventBridge Scheduler may assume (the schedule targets' roles). */
const schedulerRoleIds = () =>
  Object.entries(computeResources)
    .filter(([, r]) => r.Type === 'AWS::IAM::Role')
    .filter(([, r]) =>
      (r.Properties.AssumeRolePolicyDocument.Statement as Statement[]).some((s) => JSON.stringify(s.Principal).includes('scheduler.amazonaws.com')),
    )
    .map(([id]) => id);
const policyStatementsOfRole = (roleId: string): Statement[] =>
  Object.values(computeResources)
    .filter((r) => r.Type === 'AWS::IAM::Policy' && r.Properties.Roles.some((role: { Ref: string }) => role.Ref === roleId))
    .flatMap((r) => r.Properties.PolicyDocument.Statement);
const campaignSchedulesArn = {
  'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':scheduler:', { Ref: 'AWS::Region' }, ':', { Ref: 'AWS::AccountId' }, ':schedule/default/campaign-*']],
};

describe('one nested stack per area', () => {
  test("the compute stack itself holds only the HTTP API, its stage and access logs, the operator's access policy, and the nested stacks: each area's and the monitoring", () => {
    expect(Object.keys(compute.areaStacks)).toEqual(Object.keys(areas));
    const types = Object.values(templateOf(compute).Resources).map((r) => r.Type);
    expect(types.filter((type) => type !== 'AWS::CloudFormation::Stack').sort()).toEqual([
      'AWS::ApiGatewayV2::Api',
      'AWS::ApiGatewayV2::Stage',
      'AWS::IAM::ManagedPolicy',
      'AWS::Logs::LogGroup',
    ]);
    expect(types.filter((type) => type === 'AWS::CloudFormation::Stack')).toHaveLength(Object.keys(areas).length + 1);
  });

  test.each(operations.map((op) => [op.name, areaOf(op), op]))(
    '%s is in the %s stack, with its role, its log group and everything that invokes it',
    (_name, area, op) => {
      const stack = compute.areaStacks[area]!;
      expect(Stack.of(compute.functions[op.name])).toBe(stack);
      const own = templateOf(stack).Resources;
      const fn = own[logicalId(op)];
      expect(fn.Type).toBe('AWS::Lambda::Function');
      expect(own[fn.Properties.Role['Fn::GetAtt'][0]].Type).toBe('AWS::IAM::Role');
      expect(own[fn.Properties.LoggingConfig.LogGroup.Ref].Type).toBe('AWS::Logs::LogGroup');
      // Its route and integration, rules, permissions, event source mappings...: whatever names it, but other functions'
      // settings and the monitoring (a stack of its own, the one resource here that is not this area's own).
      const namingIt = Object.entries(computeResources).filter(
        ([id, r]) =>
          id !== logicalId(op) &&
          r.Type !== 'AWS::Lambda::Function' &&
          r.Type !== 'AWS::CloudFormation::Stack' &&
          JSON.stringify(r).includes(`"${logicalId(op)}"`),
      );
      expect(namingIt.length).toBeGreaterThan(0);
      for (const [id] of namingIt) expect(Object.keys(own)).toContain(id);
      const routeKey = routeKeyOf(op.trigger);
      if (routeKey) expect(Object.values(own).filter((r) => r.Type === 'AWS::ApiGatewayV2::Route' && r.Properties.RouteKey === routeKey)).toHaveLength(1);
    },
  );

  test('an operation whose handler is in a folder no area holds fails synth, naming the folder', () => {
    expect(() => buildWithOperations((ops) => ops.push({ ...byName('Health'), name: 'Stray', handler: 'functions/stray/handler.ts' }))).toThrow(
      /Stray: no area in lib\/areas.ts holds its handler's folder functions\/stray/,
    );
    expect(operations.map((op) => op.name)).toEqual(operationNamesAtLoad);
  });
});

describe('HTTP API', () => {
  test.each(httpOperations.map((op) => [routeKeyOf(op.trigger), op.name]))('route %s invokes the %s function', (routeKey, name) => {
    const routes = Object.values(computeResources).filter((r) => r.Type === 'AWS::ApiGatewayV2::Route' && r.Properties.RouteKey === routeKey);
    expect(routes).toHaveLength(1);
    const integrationId = routes[0].Properties.Target['Fn::Join'][1][1].Ref;
    expect(computeResources[integrationId].Properties.IntegrationUri).toEqual({ 'Fn::GetAtt': [logicalId(byName(name)), 'Arn'] });
  });

  test("the operator's routes (/admin/v1) take IAM authorization (SigV4), and only they: the others authenticate in their functions", () => {
    const routes = Object.values(computeResources).filter((r) => r.Type === 'AWS::ApiGatewayV2::Route');
    const iam = routes.filter((r) => r.Properties.AuthorizationType === 'AWS_IAM').map((r) => r.Properties.RouteKey as string);
    const operatorRoutes = httpOperations.filter((op) => op.trigger.type === 'http' && op.trigger.operator).map((op) => routeKeyOf(op.trigger));
    expect(operatorRoutes.length).toBeGreaterThan(0);
    expect(iam.sort()).toEqual(operatorRoutes.sort());
    for (const key of iam) expect(key).toMatch(/^(GET|POST|PATCH|DELETE|PUT) \/admin\/v1\//);
  });

  test("the operator's policy allows invoking /admin/v1 only, and is attached to the principals of the context value operatorPrincipals", () => {
    const granted = Template.fromStack(overriddenApp().compute);
    granted.hasResourceProperties('AWS::IAM::ManagedPolicy', {
      PolicyDocument: {
        Statement: [
          {
            Action: 'execute-api:Invoke',
            Effect: 'Allow',
            Resource: { 'Fn::Join': ['', Match.arrayWith([Match.stringLikeRegexp(':execute-api:'), Match.stringLikeRegexp('^/\\*/\\*/admin/v1/\\*$')])] },
          },
        ],
      },
      Roles: ['Ops'],
      Users: ['alice'],
    });
    granted.hasOutput('OperatorPolicyArn', {});
    // None named: the policy exists, attached to no one, for the operator to attach later.
    const alone = Object.values(templateOf(compute).Resources).find((r) => r.Type === 'AWS::IAM::ManagedPolicy')!;
    expect(alone.Properties.Roles).toBeUndefined();
    expect(alone.Properties.Users).toBeUndefined();
  });

  test('has no routes besides the operations', () => {
    computeTemplate.resourceCountIs('AWS::ApiGatewayV2::Route', httpOperations.length);
  });

  test('the $default stage writes access logs', () => {
    computeTemplate.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      AccessLogSettings: { DestinationArn: { 'Fn::GetAtt': [Match.anyValue(), 'Arn'] }, Format: Match.stringLikeRegexp('\\$context.requestId') },
    });
  });

  test('outputs the API URL and the platform webhook URL to register with Meta', () => {
    computeTemplate.hasOutput('ApiUrl', {});
    computeTemplate.hasOutput('PlatformWebhookUrl', { Value: { 'Fn::Join': ['', Match.arrayWith(['/webhooks/whatsapp'])] } });
    computeTemplate.hasOutput('TableName', {});
    computeTemplate.hasOutput('PlatformSecretArn', {});
    expect(resolveImport(computeTemplate.toJSON().Outputs.EventBusName.Value)).toEqual(eventBusRef());
  });
});

describe('functions', () => {
  test('one function per operation and no CDK helper functions (no LogRetention custom resource)', () => {
    computeTemplate.resourceCountIs('AWS::Lambda::Function', operations.length);
    expect(computeTemplate.findResources('Custom::LogRetention')).toEqual({});
  });

  test('run Node.js 22 on arm64 with active tracing and their own log group', () => {
    computeTemplate.allResourcesProperties('AWS::Lambda::Function', {
      Runtime: 'nodejs22.x',
      Architectures: ['arm64'],
      Handler: 'index.handler',
      TracingConfig: { Mode: 'Active' },
      LoggingConfig: { LogGroup: { Ref: Match.anyValue() } },
      Environment: { Variables: Match.objectLike({ POWERTOOLS_SERVICE_NAME: 'messaging-api' }) },
    });
    computeTemplate.allResourcesProperties('AWS::Logs::LogGroup', { RetentionInDays: 30 });
  });

  // --enable-source-maps would parse each bundle's source map as it loads: stacks are mapped on demand instead (shared/stack-traces.ts).
  test('set no NODE_OPTIONS', () => {
    for (const [name, fn] of Object.entries(computeTemplate.findResources('AWS::Lambda::Function'))) {
      expect([name, fn.Properties.Environment?.Variables?.NODE_OPTIONS]).toEqual([name, undefined]);
    }
  });

  test.each(operations.map((op) => [op.name, op]))('%s has its timeout and memory (default 10 s, 512 MB)', (_name, op) => {
    expect(functionResource(op).Properties).toMatchObject({ Timeout: op.timeoutSeconds ?? 10, MemorySize: op.memoryMb ?? 512 });
  });

  test.each(operations.map((op) => [op.name, op]))('%s gets exactly the settings its access needs', (_name, op) => {
    const env = envOf(op);
    expect('TABLE_NAME' in env).toBe(Boolean(op.access.table));
    expect('PLATFORM_SECRET_ARN' in env).toBe(Boolean(op.access.platformSecrets));
    expect(env.GRAPH_API_BASE_URL).toBe(op.access.graphApi ? 'https://graph.facebook.com' : undefined);
    expect(env.GRAPH_API_VERSION).toBe(op.access.graphApi ? DEFAULT_GRAPH_API_VERSION : undefined);
    expect('CAMPAIGN_SCHEDULE_TARGET_ARN' in env).toBe(Boolean(op.access.scheduler));
    expect('SCHEDULER_ROLE_ARN' in env).toBe(Boolean(op.access.scheduler));
    expect(resolveImport(env.EVENT_BUS_NAME)).toEqual(op.access.bus ? eventBusRef() : undefined);
    expect(Object.keys(env).filter((key) => key.endsWith('_QUEUE_URL'))).toEqual((op.access.queues ?? []).map(queueUrlEnv));
    for (const name of op.access.queues ?? []) expect(resolveImport(env[queueUrlEnv(name)])).toEqual({ Ref: dataId(data.queues[name]) });
  });

  test('the Graph API base URL and version can be overridden with CDK context', () => {
    const { compute: overridden } = overriddenApp();
    const fn = overridden.functions[operations.find((op) => op.access.graphApi)!.name];
    computeTemplateOf(overridden).hasResourceProperties('AWS::Lambda::Function', {
      Role: { 'Fn::GetAtt': [logicalIdOf(fn.role!), 'Arn'] },
      Environment: { Variables: Match.objectLike({ GRAPH_API_BASE_URL: 'http://simulator.internal', GRAPH_API_VERSION: 'v99.0' }) },
    });
  });

  test.each(scheduledOperations.map((op) => [op.name, op]))('%s runs on its schedule', (_name, op) => {
    const minutes = (op.trigger as Extract<Trigger, { type: 'schedule' }>).everyMinutes;
    computeTemplate.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: `rate(${minutes} ${minutes === 1 ? 'minute' : 'minutes'})`,
      Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [logicalId(op), 'Arn'] } })],
    });
  });

  test('template sync runs every 15 minutes', () => {
    computeTemplate.hasResourceProperties('AWS::Events::Rule', { ScheduleExpression: 'rate(15 minutes)' });
  });
});

describe('queue and stream consumers', () => {
  test('one event source mapping per queue or stream operation, none besides', () => {
    computeTemplate.resourceCountIs(
      'AWS::Lambda::EventSourceMapping',
      queueOperations.length + deadLetterOperations.length + streamOperations.length + streamFailureOperations.length,
    );
  });

  test("the send and fan-out queues' dead letters are consumed, so no message stays queued and no campaign running for a job nobody takes", () => {
    expect(deadLetterOperations.map((op) => (op.trigger as { queue: string }).queue)).toEqual(['send', 'fanout']);
  });

  test("one operation consumes the table stream's failure queue with partial batch responses, and may read the stream", () => {
    expect(streamFailureOperations).toHaveLength(1);
    const [op] = streamFailureOperations;
    const mappings = mappingsOf(op);
    expect(mappings).toHaveLength(1);
    expect(resolveImport(mappings[0].Properties.EventSourceArn)).toEqual(arnOf(data.streamFailureQueue));
    expect(mappings[0].Properties).toMatchObject({ FunctionResponseTypes: ['ReportBatchItemFailures'] });
  });

  test('each stream function is given what it reads: the outbox new messages, campaigns and contacts, the events and counts all but the skipped records', () => {
    const record = ({ PK, SK }: { PK: string; SK: string }, status?: string) => ({
      dynamodb: { Keys: { PK: { S: PK }, SK: { S: SK } }, ...(status && { NewImage: { PK: { S: PK }, SK: { S: SK }, status: { S: status } } }) },
    });
    const changes = [
      record(messageKey('ws', 'sent'), 'queued'),
      record(messageKey('ws', 'received'), 'received'),
      record(messageKey('ws', 'sent'), 'delivered'),
      // Removed: no new image.
      record(messageKey('ws', 'expired')),
      record(campaignKey('ws', 'cmp'), 'running'),
      record(contactKey('ws', 'ctc')),
      record(templateKey('ws', undefined, 'welcome', 'en')),
      record(templateKey('ws', '1234567890', 'welcome', 'en')),
      // A number's item: its partition names the workspace's numbers, its sort key is the platform's phone number id.
      record({ PK: 'WS#ws#NUMBERS', SK: '106540352242922' }),
    ];
    expect(changes.filter((r) => passesStreamFilters('changes', r))).toEqual(changes);
    expect(changes.filter((r) => passesStreamFilters('followUps', r))).toEqual([changes[0], changes[1], changes[4], changes[5]]);
    const skipped = [record(rateWindowKey('ws')), record(messageCountsKey('ws', 0))];
    expect(skipped.filter((r) => passesStreamFilters('changes', r) || passesStreamFilters('followUps', r))).toEqual([]);
  });

  test("exactly one stream operation counts messages, and the failure consumer knows it by name (it counts only that one's batches again)", () => {
    const counters = streamOperations.filter((op) => (op.trigger as StreamTrigger).countsMessages);
    expect(counters.map((op) => op.name)).toEqual(['PublishEvents']);
    expect(envOf(streamFailureOperations[0]).MESSAGE_COUNTING_FUNCTION).toEqual({ Ref: logicalId(counters[0]) });
  });

  test.each(deadLetterOperations.map((op) => [op.name, op]))("%s consumes its queue's dead-letter queue with partial batch responses", (_name, op) => {
    const trigger = op.trigger as { queue: QueueName; batchSize: number };
    const mappings = mappingsOf(op);
    expect(mappings).toHaveLength(1);
    expect(resolveImport(mappings[0].Properties.EventSourceArn)).toEqual(arnOf(data.deadLetterQueues[trigger.queue]));
    expect(mappings[0].Properties).toMatchObject({ BatchSize: trigger.batchSize, FunctionResponseTypes: ['ReportBatchItemFailures'] });
  });

  test.each(queueOperations.map((op) => [op.name, op]))('%s consumes its queue with partial batch responses', (_name, op) => {
    const trigger = op.trigger as QueueTrigger;
    const mappings = mappingsOf(op);
    expect(mappings).toHaveLength(1);
    expect(resolveImport(mappings[0].Properties.EventSourceArn)).toEqual(arnOf(data.queues[trigger.queue]));
    expect(mappings[0].Properties).toMatchObject({
      BatchSize: trigger.batchSize,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      MaximumBatchingWindowInSeconds: 0,
    });
  });

  test.each(queueOperations.map((op) => [op.name, op]))("%s times out before its queue's visibility timeout", (_name, op) => {
    const { visibilityTimeoutSeconds } = queues[(op.trigger as QueueTrigger).queue];
    expect(functionResource(op).Properties.Timeout).toBeLessThan(visibilityTimeoutSeconds);
  });

  test.each(queueOperations.map((op) => [op.name, op]))('%s may receive, delete and change the visibility of its queue’s messages', (_name, op) => {
    const queueArn = arnOf(data.queues[(op.trigger as QueueTrigger).queue]);
    for (const action of ['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:ChangeMessageVisibility']) {
      expect(resourcesAllowing(op, action)).toEqual([queueArn]);
    }
  });

  // The patterns as Lambda matches them: the records the function does not read invoke nothing.
  const filtersOf = {
    followUps: [
      { dynamodb: { Keys: { SK: { S: ['MESSAGE'] } }, NewImage: { status: { S: ['queued', 'received'] } } } },
      { dynamodb: { Keys: { SK: { S: ['CAMPAIGN', 'CONTACT'] } } } },
    ],
    changes: [
      {
        dynamodb: {
          Keys: { SK: { S: [{ 'anything-but': ['RATE', 'WAMID', 'COUNTED', 'COUNTS', 'WINDOW', 'PACE', 'IDEMPOTENCY', 'CHAT_GROUP_REF', 'CALL_REF'] }] } },
        },
      },
    ],
  };

  test.each(streamOperations.map((op) => [op.name, op]))(
    '%s reads the table stream, bisects failing batches (unless it counts messages), keeps what still fails and is invoked only for what it reads',
    (_name, op) => {
      const trigger = op.trigger as StreamTrigger;
      const mappings = mappingsOf(op);
      expect(mappings).toHaveLength(1);
      const { EventSourceArn, DestinationConfig, ...properties } = mappings[0].Properties;
      expect(resolveImport(EventSourceArn)).toEqual(tableStreamArn());
      expect(resolveImport(DestinationConfig.OnFailure.Destination)).toEqual(arnOf(data.streamFailureQueue));
      expect(properties).toEqual({
        FunctionName: { Ref: logicalId(op) },
        StartingPosition: 'TRIM_HORIZON',
        BatchSize: trigger.batchSize,
        MaximumBatchingWindowInSeconds: trigger.batchingWindowSeconds ?? 0,
        // The counting function's batches are marked as received: a split batch would count again.
        BisectBatchOnFunctionError: !trigger.countsMessages,
        MaximumRetryAttempts: 20,
        // The records no stream function reads invoke nothing: every API request's rate window, each message's platform-id item, the counting's marks and workspace counter shards.
        FilterCriteria: { Filters: filtersOf[trigger.reads].map((pattern) => ({ Pattern: JSON.stringify(pattern) })) },
      });
      // Lambda sends the failure record with the function's role.
      expect(resourcesAllowing(op, 'sqs:SendMessage')).toContainEqual(arnOf(data.streamFailureQueue));
    },
  );
});

describe('least privilege', () => {
  const allStatements = [dataTemplate, computeTemplate]
    .flatMap((t) => Object.values(t.toJSON().Resources as Record<string, Resource>))
    .flatMap((r) => [
      ...(r.Type === 'AWS::IAM::Policy' ? r.Properties.PolicyDocument.Statement : []),
      ...(r.Type === 'AWS::IAM::Role' ? (r.Properties.Policies ?? []).flatMap((p: any) => p.PolicyDocument.Statement) : []),
    ]) as Statement[];

  test('no statement has a wildcard action', () => {
    const actions = allStatements.flatMap((s) => asArray(s.Action));
    expect(actions.length).toBeGreaterThan(0);
    expect(actions.filter((a) => a === '*' || a.endsWith(':*'))).toEqual([]);
  });

  test('only X-Ray and the erasure\'s ListSchedules (which have no resource-level permissions) get Resource "*"', () => {
    const wildcardActions = allStatements.filter((s) => asArray(s.Resource).includes('*')).flatMap((s) => asArray(s.Action));
    expect(wildcardActions.every((a) => a.startsWith('xray:') || a === 'scheduler:ListSchedules')).toBe(true);
    expect(operations.filter((op) => actionsOf(op).includes('scheduler:ListSchedules')).map((op) => op.name)).toEqual(['EraseWorkspace']);
  });

  test('nothing but the erasure of a workspace may scan the table, and only the table', () => {
    expect(operations.filter((op) => actionsOf(op).includes('dynamodb:Scan')).map((op) => op.name)).toEqual(['EraseWorkspace']);
    const scans = allStatements.filter((s) => asArray(s.Action).includes('dynamodb:Scan'));
    expect(scans.flatMap((s) => asArray(s.Resource)).map((r) => JSON.stringify(r))).not.toContainEqual(expect.stringContaining('/index/'));
  });

  test('the erasure deletes secrets under messaging-api/workspaces/ only, and nothing else does', () => {
    expect(operations.filter((op) => actionsOf(op).includes('secretsmanager:DeleteSecret')).map((op) => op.name)).toEqual(['EraseWorkspace']);
    const deletes = allStatements.filter((s) => asArray(s.Action).includes('secretsmanager:DeleteSecret'));
    expect(JSON.stringify(deletes.flatMap((s) => asArray(s.Resource)))).toContain(':secret:messaging-api/workspaces/*');
  });

  test('no AWS managed policies on function roles', () => {
    computeTemplate.allResourcesProperties('AWS::IAM::Role', { ManagedPolicyArns: Match.absent() });
  });

  test.each(operations.map((op) => [op.name, op]))('%s gets table and secret permissions only as declared', (_name, op) => {
    const actions = actionsOf(op);
    expect(actions.includes('dynamodb:Query')).toBe(Boolean(op.access.table));
    expect(actions.includes('dynamodb:PutItem')).toBe(op.access.table === 'readWrite');
    expect(actions.includes('secretsmanager:GetSecretValue')).toBe(Boolean(op.access.platformSecrets));
    expect(actions.includes('scheduler:CreateSchedule')).toBe(Boolean(op.access.scheduler));
    expect(actions.includes('scheduler:DeleteSchedule')).toBe(Boolean(op.access.scheduler || op.access.erasure));
    expect(actions.includes('iam:PassRole')).toBe(Boolean(op.access.scheduler));
    expect(actions.includes('events:PutEvents')).toBe(Boolean(op.access.bus));
    expect(actions).not.toContain('lambda:InvokeFunction');
  });

  test.each(operations.map((op) => [op.name, op]))(
    "%s reads workspaces' own secrets with platform secrets, writes them only if declared, deletes them only for erasure, under the workspaces prefix only",
    (_name, op) => {
      const underPrefix = (action: string) => resourcesAllowing(op, action).filter((r) => /:secret:messaging-api\/workspaces\/\*"/.test(JSON.stringify(r)));
      expect(underPrefix('secretsmanager:GetSecretValue')).toHaveLength(op.access.platformSecrets ? 1 : 0);
      for (const action of ['secretsmanager:CreateSecret', 'secretsmanager:PutSecretValue']) {
        expect(underPrefix(action)).toHaveLength(op.access.workspaceSecrets ? 1 : 0);
        expect(resourcesAllowing(op, action)).toEqual(underPrefix(action));
      }
      expect(underPrefix('secretsmanager:DeleteSecret')).toHaveLength(op.access.erasure ? 1 : 0);
      expect(resourcesAllowing(op, 'secretsmanager:DeleteSecret')).toEqual(underPrefix('secretsmanager:DeleteSecret'));
    },
  );

  test('no roles besides one per function and one per schedule target', () => {
    computeTemplate.resourceCountIs('AWS::IAM::Role', operations.length + scheduleTargetOperations.length);
    expect(dataTemplate.findResources('AWS::IAM::Role')).toEqual({});
  });

  test.each(operations.map((op) => [op.name, op]))('%s may send to, consume and read streams of only what it declares', (_name, op) => {
    const sendTargets = [
      ...(op.access.queues ?? []).map((name) => arnOf(data.queues[name])),
      ...(op.trigger.type === 'tableStream' ? [arnOf(data.streamFailureQueue)] : []),
      // A bus-rule or schedule-target function's failed asynchronous invocations go to the bus failure queue.
      ...(op.trigger.type === 'busRule' || op.trigger.type === 'scheduleTarget' ? [arnOf(data.busDeliveryFailureQueue)] : []),
    ];
    expect(resourcesAllowing(op, 'sqs:SendMessage')).toEqual(expect.arrayContaining(sendTargets));
    expect(resourcesAllowing(op, 'sqs:SendMessage')).toHaveLength(sendTargets.length);
    const consumed =
      op.trigger.type === 'queue'
        ? [arnOf(data.queues[op.trigger.queue])]
        : op.trigger.type === 'deadLetters'
          ? [arnOf(data.deadLetterQueues[op.trigger.queue])]
          : op.trigger.type === 'streamFailures'
            ? [arnOf(data.streamFailureQueue)]
            : [];
    expect(resourcesAllowing(op, 'sqs:ReceiveMessage')).toEqual(consumed);
    expect(resourcesAllowing(op, 'dynamodb:GetRecords')).toEqual(op.trigger.type === 'tableStream' || op.access.tableStream ? [tableStreamArn()] : []);
  });

  test('table grants name each index instead of <table>/index/*', () => {
    const tableOp = operations.find((op) => op.access.table)!;
    const resources = JSON.stringify(statementsOf(tableOp).map((s) => s.Resource));
    for (const index of Object.values(indexes)) expect(resources).toContain(`/index/${index.indexName}`);
    expect(resources).not.toContain('/index/*');
  });
});

describe('one-time campaign schedules (EventBridge Scheduler)', () => {
  // CAMPAIGN_SCHEDULE_TARGET_ARN names one function: the stack refuses anything else (see below).
  test('there is exactly one schedule target operation, and some operation creates its schedules', () => {
    expect(scheduleTargetOperations.map((op) => op.name)).toEqual(['StartScheduledCampaign']);
    expect(schedulerOperations.length).toBeGreaterThan(0);
  });

  const starter = scheduleTargetOperations[0];

  test('one role, which only EventBridge Scheduler of this account may assume', () => {
    const roleIds = schedulerRoleIds();
    expect(roleIds).toHaveLength(1);
    expect(computeResources[roleIds[0]].Properties.AssumeRolePolicyDocument.Statement).toEqual([
      {
        Effect: 'Allow',
        Principal: { Service: 'scheduler.amazonaws.com' },
        Action: 'sts:AssumeRole',
        Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } } },
      },
    ]);
    expect(computeResources[roleIds[0]].Properties.ManagedPolicyArns).toBeUndefined();
    expect(computeResources[roleIds[0]].Properties.Policies).toBeUndefined();
  });

  test('the role may invoke the starter function (unqualified ARN) and nothing else', () => {
    expect(policyStatementsOfRole(schedulerRoleIds()[0])).toEqual([
      { Effect: 'Allow', Action: 'lambda:InvokeFunction', Resource: { 'Fn::GetAtt': [logicalId(starter), 'Arn'] } },
    ]);
  });

  test('the starter has no resource-based permission (Scheduler invokes with the role) and no other trigger', () => {
    const permissions = Object.values(computeResources).filter((r) => r.Type === 'AWS::Lambda::Permission');
    expect(permissions.filter((r) => JSON.stringify(r.Properties.FunctionName).includes(logicalId(starter)))).toEqual([]);
    expect(permissions.filter((r) => r.Properties.Principal === 'scheduler.amazonaws.com')).toEqual([]);
    expect(mappingsOf(starter)).toEqual([]);
  });

  test.each(schedulerOperations.map((op) => [op.name, op]))('%s knows the starter and the role to pass', (_name, op) => {
    expect(envOf(op)).toMatchObject({
      CAMPAIGN_SCHEDULE_TARGET_ARN: { 'Fn::GetAtt': [logicalId(starter), 'Arn'] },
      SCHEDULER_ROLE_ARN: { 'Fn::GetAtt': [schedulerRoleIds()[0], 'Arn'] },
    });
  });

  test.each(schedulerOperations.map((op) => [op.name, op]))('%s may create and delete campaign-* schedules of the default group only', (_name, op) => {
    const statements = statementsOf(op).filter((s) => asArray(s.Action).some((a) => a.startsWith('scheduler:')));
    expect(statements).toEqual([{ Effect: 'Allow', Action: ['scheduler:CreateSchedule', 'scheduler:DeleteSchedule'], Resource: campaignSchedulesArn }]);
  });

  test.each(schedulerOperations.map((op) => [op.name, op]))('%s may pass the scheduler role, to EventBridge Scheduler only', (_name, op) => {
    expect(statementsOf(op).filter((s) => asArray(s.Action).includes('iam:PassRole'))).toEqual([
      {
        Effect: 'Allow',
        Action: 'iam:PassRole',
        Resource: { 'Fn::GetAtt': [schedulerRoleIds()[0], 'Arn'] },
        Condition: { StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } },
      },
    ]);
  });

  test('synth fails clearly with a second schedule target', () => {
    const second: Operation = { ...starter, name: 'AnotherStarter' };
    expect(() => buildWithOperations((ops) => ops.push(second))).toThrow(
      /TableOutbox has access 'scheduler', which needs exactly one operation with trigger 'scheduleTarget'.*found: StartScheduledCampaign, AnotherStarter/,
    );
  });

  test('synth fails clearly with no schedule target', () => {
    expect(() => buildWithOperations((ops) => ops.splice(ops.indexOf(starter), 1))).toThrow(
      /access 'scheduler', which needs exactly one operation with trigger 'scheduleTarget'.*found: none/,
    );
  });

  test('the operations are put back after those checks', () => {
    expect(operations.map((op) => op.name)).toEqual(operationNamesAtLoad);
  });
});

describe('event bus', () => {
  const busId = () => dataId(data.eventBus);
  const failureQueueId = () => dataId(data.busDeliveryFailureQueue);

  test('the service has its own bus, messaging-api-events, archived 7 days for replay', () => {
    dataTemplate.resourceCountIs('AWS::Events::EventBus', 1);
    expect(dataResources[busId()].Properties).toMatchObject({ Name: 'messaging-api-events' });
    dataTemplate.resourceCountIs('AWS::Events::Archive', 1);
    dataTemplate.hasResourceProperties('AWS::Events::Archive', {
      SourceArn: { 'Fn::GetAtt': [busId(), 'Arn'] },
      EventPattern: { source: ['messaging-api'] },
      RetentionDays: 7,
    });
  });

  test('BusDeliveryFailures keeps undelivered events 14 days, encrypted, and only rules of the bus may send to it', () => {
    expect(dataResources[failureQueueId()].Properties).toEqual({ MessageRetentionPeriod: days(14), SqsManagedSseEnabled: true });
    const policies = Object.values(dataResources).filter((r) => r.Type === 'AWS::SQS::QueuePolicy' && r.Properties.Queues[0].Ref === failureQueueId());
    expect(policies).toHaveLength(1);
    const allows = (policies[0].Properties.PolicyDocument.Statement as Statement[]).filter((s) => s.Effect === 'Allow');
    expect(allows).toEqual([
      {
        Sid: 'AllowServiceBusRules',
        Effect: 'Allow',
        Principal: { Service: 'events.amazonaws.com' },
        Action: 'sqs:SendMessage',
        Resource: { 'Fn::GetAtt': [failureQueueId(), 'Arn'] },
        Condition: {
          ArnLike: {
            'aws:SourceArn': {
              'Fn::Join': [
                '',
                ['arn:', { Ref: 'AWS::Partition' }, ':events:', { Ref: 'AWS::Region' }, ':', { Ref: 'AWS::AccountId' }, ':rule/', { Ref: busId() }, '/*'],
              ],
            },
          },
        },
      },
    ]);
  });

  test('there is a busRule operation and a publisher, and no rules on the bus besides the busRule operations', () => {
    expect(busRuleOperations.length).toBeGreaterThan(0);
    expect(busPublishers.length).toBeGreaterThan(0);
    expect(busRulesIn(computeResources)).toHaveLength(busRuleOperations.length);
    computeTemplate.resourceCountIs('AWS::Events::Rule', busRuleOperations.length + scheduledOperations.length);
  });

  test.each(busRuleOperations.map((op) => [op.name, op]))(
    '%s gets its events from the bus, retried for a day, then kept in BusDeliveryFailures',
    (_name, op) => {
      const { detailTypes } = op.trigger as BusRuleTrigger;
      const rules = busRulesTargeting(computeResources, logicalId(op));
      expect(rules).toHaveLength(1);
      const [ruleId, rule] = rules[0];
      expect(resolveImport(rule.Properties.EventBusName)).toEqual({ Ref: busId() });
      expect(rule.Properties.EventPattern).toEqual(
        detailTypes.includes('*') ? { source: ['messaging-api'] } : { source: ['messaging-api'], 'detail-type': detailTypes },
      );
      expect(rule.Properties.State).toBe('ENABLED');
      const [target, ...others] = rule.Properties.Targets;
      expect(others).toEqual([]);
      expect(target).toMatchObject({ Arn: functionArn(logicalId(op)), RetryPolicy: { MaximumRetryAttempts: 185, MaximumEventAgeInSeconds: days(1) } });
      expect(resolveImport(target.DeadLetterConfig.Arn)).toEqual({ 'Fn::GetAtt': [failureQueueId(), 'Arn'] });
      // EventBridge invokes with the function's resource policy, from this rule only.
      computeTemplate.hasResourceProperties('AWS::Lambda::Permission', {
        Action: 'lambda:InvokeFunction',
        FunctionName: functionArn(logicalId(op)),
        Principal: 'events.amazonaws.com',
        SourceArn: { 'Fn::GetAtt': [ruleId, 'Arn'] },
      });
    },
  );

  test('detail types become the pattern; "*" among them matches every event of the service', () => {
    const template = buildWithOperations((ops) => {
      // Any handler will do: only the rules are looked at.
      const base = byName('Health');
      ops.push(
        { ...base, name: 'SomeTypes', trigger: { type: 'busRule', detailTypes: ['message.sent', 'message.failed'] } },
        { ...base, name: 'AllTypes', trigger: { type: 'busRule', detailTypes: ['message.sent', '*'] } },
      );
    });
    const resources = computeTemplateOf(template.compute).toJSON().Resources as Record<string, Resource>;
    const patternOf = (name: string) => {
      const rules = busRulesTargeting(resources, logicalIdOf(template.compute.functions[name]));
      expect(rules).toHaveLength(1);
      return rules[0][1].Properties.EventPattern;
    };
    expect(patternOf('SomeTypes')).toEqual({ source: ['messaging-api'], 'detail-type': ['message.sent', 'message.failed'] });
    expect(patternOf('AllTypes')).toEqual({ source: ['messaging-api'] });
  });

  test.each(operations.map((op) => [op.name, op]))('%s may put events on the service bus only, and only if it declares access bus', (_name, op) => {
    expect(resourcesAllowing(op, 'events:PutEvents')).toEqual(op.access.bus ? [{ 'Fn::GetAtt': [busId(), 'Arn'] }] : []);
  });

  test('the operations are put back after the pattern check', () => {
    expect(operations.map((op) => op.name)).toEqual(operationNamesAtLoad);
  });
});

describe('data stack', () => {
  test('the table is built from shared/data/table/table.ts: keys, TTL and indexes', () => {
    const keySchema = (pk: string, sk: string) => [
      { AttributeName: pk, KeyType: 'HASH' },
      { AttributeName: sk, KeyType: 'RANGE' },
    ];
    dataTemplate.resourceCountIs('AWS::DynamoDB::GlobalTable', 1);
    dataTemplate.hasResourceProperties('AWS::DynamoDB::GlobalTable', {
      BillingMode: 'PAY_PER_REQUEST',
      KeySchema: keySchema(table.partitionKey, table.sortKey),
      TimeToLiveSpecification: { AttributeName: table.timeToLiveAttribute, Enabled: true },
      // The same indexes and projections DynamoDB Local gets, so local runs and the cloud agree.
      GlobalSecondaryIndexes: createTableInput('any').GlobalSecondaryIndexes!.map((index) => ({
        IndexName: index.IndexName,
        KeySchema: index.KeySchema,
        Projection: index.Projection,
      })),
      SSESpecification: { SSEEnabled: true, SSEType: 'KMS' },
      StreamSpecification: { StreamViewType: 'NEW_AND_OLD_IMAGES' },
      Replicas: [Match.objectLike({ PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true }, DeletionProtectionEnabled: true })],
    });
  });

  test('the table and the secret are retained when the stack is deleted', () => {
    dataTemplate.hasResource('AWS::DynamoDB::GlobalTable', { DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
    dataTemplate.hasResource('AWS::SecretsManager::Secret', { DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
  });

  test.each(Object.entries(queues))('the %s queue redrives to its own dead-letter queue after its maxReceiveCount', (name, settings) => {
    const queue = dataResources[dataId(data.queues[name as QueueName])].Properties;
    const deadLetterQueue = dataResources[dataId(data.deadLetterQueues[name as QueueName])].Properties;
    expect(queue).toMatchObject({
      VisibilityTimeout: settings.visibilityTimeoutSeconds,
      MessageRetentionPeriod: days(4),
      SqsManagedSseEnabled: true,
      RedrivePolicy: { deadLetterTargetArn: arnOf(data.deadLetterQueues[name as QueueName]), maxReceiveCount: settings.maxReceiveCount },
    });
    expect(deadLetterQueue).toMatchObject({ MessageRetentionPeriod: days(14), SqsManagedSseEnabled: true });
    expect(deadLetterQueue.RedrivePolicy).toBeUndefined();
    // Only its source queue may use it (and be the target of "start DLQ redrive"); the ARN is built from the name (no cycle).
    expect(deadLetterQueue.RedriveAllowPolicy).toEqual({
      redrivePermission: 'byQueue',
      sourceQueueArns: [
        { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':sqs:', { Ref: 'AWS::Region' }, ':', { Ref: 'AWS::AccountId' }, `:${queue.QueueName}`]] },
      ],
    });
  });

  test('the stream failure queue keeps failed stream batches for 14 days', () => {
    expect(dataResources[dataId(data.streamFailureQueue)].Properties).toEqual({ MessageRetentionPeriod: days(14), SqsManagedSseEnabled: true });
  });

  test('no queues besides those of shared/service/queues.ts, their dead-letter queues, the stream and the bus failure queues; all TLS-only', () => {
    const queueIds = Object.keys(dataTemplate.findResources('AWS::SQS::Queue'));
    expect(queueIds).toHaveLength(2 * Object.keys(queues).length + 2);
    for (const queueId of queueIds) {
      dataTemplate.hasResourceProperties('AWS::SQS::QueuePolicy', {
        Queues: [{ Ref: queueId }],
        PolicyDocument: {
          Statement: Match.arrayWith([
            Match.objectLike({
              Effect: 'Deny',
              Action: 'sqs:*',
              Condition: { Bool: { 'aws:SecureTransport': 'false' } },
              Resource: { 'Fn::GetAtt': [queueId, 'Arn'] },
            }),
          ]),
        },
      });
    }
  });

  test('the platform secret generates only verify_token; no secret value is in the template', () => {
    const secret = Object.values(dataTemplate.findResources('AWS::SecretsManager::Secret'))[0] as Resource;
    expect(secret.Properties.SecretString).toBeUndefined();
    expect(secret.Properties.GenerateSecretString.GenerateStringKey).toBe('verify_token');
    expect(JSON.parse(secret.Properties.GenerateSecretString.SecretStringTemplate)).toEqual({ app_secret: '', access_token: '' });
  });
});

describe('media bucket', () => {
  test('is private, encrypted, TLS-only, kept on stack deletion, and expires copies after 30 days', () => {
    dataTemplate.hasResource('AWS::S3::Bucket', {
      DeletionPolicy: 'Retain',
      Properties: Match.objectLike({
        BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
        PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
        LifecycleConfiguration: {
          Rules: [
            Match.objectLike({ ExpirationInDays: 30, Status: 'Enabled' }),
            Match.objectLike({ Prefix: 'platform-webhooks/', ExpirationInDays: 1, Status: 'Enabled' }),
          ],
        },
      }),
    });
    const policy = Object.values(dataResources).find((r) => r.Type === 'AWS::S3::BucketPolicy')!;
    expect(JSON.stringify(policy.Properties.PolicyDocument)).toContain('aws:SecureTransport');
  });

  test('has no name of ours, so no other account can take it first (contract §22), and every function that calls it knows its owner', () => {
    const bucket = Object.values(dataResources).find((r) => r.Type === 'AWS::S3::Bucket')!;
    expect(bucket.Properties.BucketName).toBeUndefined();
    const withBucket = Object.values(computeResources).filter((r) => r.Type === 'AWS::Lambda::Function' && r.Properties.Environment?.Variables?.MEDIA_BUCKET);
    expect(withBucket.length).toBeGreaterThan(0);
    for (const fn of withBucket) expect(fn.Properties.Environment.Variables.MEDIA_BUCKET_OWNER).toEqual({ Ref: 'AWS::AccountId' });
  });

  test('only the copy worker and the webhook receiver may put objects; GetMessage and the webhook worker may only read them; only the erasure lists and deletes', () => {
    const withMedia = operations.filter((op) => op.access.media).map((op) => [op.name, op.access.media]);
    expect(withMedia).toEqual([
      ['GetMessage', 'read'],
      ['ReceivePlatformWebhook', 'readWrite'],
      ['PlatformWebhookWorker', 'read'],
      ['MediaCopyWorker', 'readWrite'],
    ]);
    const s3Actions = Object.values(computeResources)
      .filter((r) => r.Type === 'AWS::IAM::Policy')
      .flatMap((r) => r.Properties.PolicyDocument.Statement as Statement[])
      .flatMap((st) => asArray(st.Action))
      .filter((action) => action.startsWith('s3:'));
    expect([...new Set(s3Actions)].sort()).toEqual(['s3:DeleteObject', 's3:GetObject', 's3:ListBucket', 's3:PutObject']);
    const erasing = operations.filter((op) => op.access.erasure).map((op) => op.name);
    expect(erasing).toEqual(['EraseWorkspace']);
  });
});
