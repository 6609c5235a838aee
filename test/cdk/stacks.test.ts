import type { CfnElement } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { operations, type Operation, type Trigger } from '#lib/operations';
import { indexes, table } from '#shared/db/table';
import { buildTestApp } from './synth-app';

type Resource = { Type: string; Properties: Record<string, any>; DeletionPolicy?: string };
type Statement = { Action: string | string[]; Resource: unknown };

const { data, compute } = buildTestApp();
const dataTemplate = Template.fromStack(data);
const computeTemplate = Template.fromStack(compute);
const computeResources = computeTemplate.toJSON().Resources as Record<string, Resource>;

const logicalId = (op: Operation) => compute.getLogicalId(compute.functions[op.name].node.defaultChild as CfnElement);
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

const routeKeyOf = (trigger: Trigger) => (trigger.type === 'http' ? `${trigger.method} ${trigger.path}` : trigger.type === 'httpDefault' ? '$default' : undefined);
const httpOperations = operations.filter((op) => routeKeyOf(op.trigger));
const scheduledOperations = operations.filter((op) => op.trigger.type === 'schedule');
const byName = (name: string) => operations.find((op) => op.name === name)!;

describe('HTTP API', () => {
  test.each(httpOperations.map((op) => [routeKeyOf(op.trigger), op.name]))('route %s invokes the %s function', (routeKey, name) => {
    const routes = Object.values(computeResources).filter((r) => r.Type === 'AWS::ApiGatewayV2::Route' && r.Properties.RouteKey === routeKey);
    expect(routes).toHaveLength(1);
    const integrationId = routes[0].Properties.Target['Fn::Join'][1][1].Ref;
    expect(computeResources[integrationId].Properties.IntegrationUri).toEqual({ 'Fn::GetAtt': [logicalId(byName(name)), 'Arn'] });
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
      Environment: { Variables: Match.objectLike({ NODE_OPTIONS: '--enable-source-maps', POWERTOOLS_SERVICE_NAME: 'messaging-api' }) },
    });
    computeTemplate.allResourcesProperties('AWS::Logs::LogGroup', { RetentionInDays: 30 });
  });

  test.each(operations.map((op) => [op.name, op]))('%s has its timeout and memory (default 10 s, 512 MB)', (_name, op) => {
    expect(functionResource(op).Properties).toMatchObject({ Timeout: op.timeoutSeconds ?? 10, MemorySize: op.memoryMb ?? 512 });
  });

  test.each(operations.map((op) => [op.name, op]))('%s gets exactly the settings its access needs', (_name, op) => {
    const env = envOf(op);
    expect('TABLE_NAME' in env).toBe(Boolean(op.access.table));
    expect('PLATFORM_SECRET_ARN' in env).toBe(Boolean(op.access.platformSecrets));
    expect(env.GRAPH_API_BASE_URL).toBe(op.access.graphApi ? 'https://graph.facebook.com' : undefined);
    expect(env.GRAPH_API_VERSION).toBe(op.access.graphApi ? 'v21.0' : undefined);
  });

  test('the Graph API base URL and version can be overridden with CDK context', () => {
    const { compute: overridden } = buildTestApp({ context: { graphApiBaseUrl: 'http://simulator.internal', graphApiVersion: 'v99.0' } });
    const fn = overridden.functions[operations.find((op) => op.access.graphApi)!.name];
    Template.fromStack(overridden).hasResourceProperties('AWS::Lambda::Function', {
      Role: { 'Fn::GetAtt': [overridden.getLogicalId(fn.role!.node.defaultChild as CfnElement), 'Arn'] },
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

  test('only X-Ray (which has no resource-level permissions) gets Resource "*"', () => {
    const wildcardActions = allStatements.filter((s) => asArray(s.Resource).includes('*')).flatMap((s) => asArray(s.Action));
    expect(wildcardActions.every((a) => a.startsWith('xray:'))).toBe(true);
  });

  test('no AWS managed policies on function roles', () => {
    computeTemplate.allResourcesProperties('AWS::IAM::Role', { ManagedPolicyArns: Match.absent() });
  });

  test.each(operations.map((op) => [op.name, op]))('%s gets table and secret permissions only as declared', (_name, op) => {
    const actions = actionsOf(op);
    expect(actions.includes('dynamodb:Query')).toBe(Boolean(op.access.table));
    expect(actions.includes('dynamodb:PutItem')).toBe(op.access.table === 'readWrite');
    expect(actions.includes('secretsmanager:GetSecretValue')).toBe(Boolean(op.access.platformSecrets));
  });

  test('table grants name each index instead of <table>/index/*', () => {
    const tableOp = operations.find((op) => op.access.table)!;
    const resources = JSON.stringify(statementsOf(tableOp).map((s) => s.Resource));
    for (const index of Object.values(indexes)) expect(resources).toContain(`/index/${index.indexName}`);
    expect(resources).not.toContain('/index/*');
  });
});

describe('data stack', () => {
  test('the table is built from shared/db/table.ts: keys, TTL and indexes', () => {
    const keySchema = (pk: string, sk: string) => [
      { AttributeName: pk, KeyType: 'HASH' },
      { AttributeName: sk, KeyType: 'RANGE' },
    ];
    dataTemplate.resourceCountIs('AWS::DynamoDB::GlobalTable', 1);
    dataTemplate.hasResourceProperties('AWS::DynamoDB::GlobalTable', {
      BillingMode: 'PAY_PER_REQUEST',
      KeySchema: keySchema(table.partitionKey, table.sortKey),
      TimeToLiveSpecification: { AttributeName: table.timeToLiveAttribute, Enabled: true },
      GlobalSecondaryIndexes: Object.values(indexes).map((index) => ({
        IndexName: index.indexName,
        KeySchema: keySchema(index.partitionKey, index.sortKey),
        Projection: { ProjectionType: 'ALL' },
      })),
      SSESpecification: { SSEEnabled: true, SSEType: 'KMS' },
      Replicas: [Match.objectLike({ PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true }, DeletionProtectionEnabled: true })],
    });
  });

  test('the table and the secret are retained when the stack is deleted', () => {
    dataTemplate.hasResource('AWS::DynamoDB::GlobalTable', { DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
    dataTemplate.hasResource('AWS::SecretsManager::Secret', { DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
  });

  test('the platform secret generates only verify_token; no secret value is in the template', () => {
    const secret = Object.values(dataTemplate.findResources('AWS::SecretsManager::Secret'))[0] as Resource;
    expect(secret.Properties.SecretString).toBeUndefined();
    expect(secret.Properties.GenerateSecretString.GenerateStringKey).toBe('verify_token');
    expect(JSON.parse(secret.Properties.GenerateSecretString.SecretStringTemplate)).toEqual({ app_secret: '', access_token: '' });
  });
});
