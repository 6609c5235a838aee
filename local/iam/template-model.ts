import { Stack } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';
import { buildAppWithoutBundling } from '#lib/app';
import { logicalIdOf, nestedStackResourceId, nestedStacksOf, templateOf, type Resource } from '#lib/templates';
import { operations } from '#shared/service/operations';
import { queues as queueSettings, type QueueName } from '#shared/service/queues';
import { ACCOUNT, PARTITION, REGION, SECRET_SUFFIX, type FunctionModel, type PolicyDocument, type TemplateModel } from '#local/iam/model';

/**
 * What the local stack needs of the synthesized app to act as AWS would: each function's role
 * policies and environment, and the resources they name, every reference resolved to a canonical
 * value. Canonical: the account 000000000000 in us-east-1, each resource named by its logical id
 * (a table `table/<TableLogicalId>`, a queue `<QueueLogicalId>`, a secret `secret:<LogicalId>-AbCdEf`
 * with the random suffix Secrets Manager adds) unless the template names it, so one model serves
 * every local stack, whatever it names its table or queues (local/iam/resources.ts maps those).
 */

const isIntrinsic = (value: unknown): value is Record<string, unknown> => {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length === 1 && (keys[0] === 'Ref' || keys[0].startsWith('Fn::'));
};

/** A resource's name: the one its template gives it, else (named by CloudFormation) its logical id. */
function nameOf(id: string, resource: Resource, property: string): string {
  const given = resource.Properties?.[property];
  if (given === undefined) return id;
  if (typeof given !== 'string') throw new Error(`${id}: ${property} is not a plain string in the template`);
  return given;
}

/** What `Ref` and `Fn::GetAtt` give for each resource type the roles name. */
function attribute(id: string, resource: Resource, attr: 'Ref' | string): string {
  const arn = (service: string, rest: string) => `arn:${PARTITION}:${service}:${REGION}:${ACCOUNT}:${rest}`;
  const fail = () => new Error(`${id} (${resource.Type}): no canonical value for ${attr} (local/iam/template-model.ts)`);
  switch (resource.Type) {
    case 'AWS::DynamoDB::GlobalTable':
    case 'AWS::DynamoDB::Table': {
      const name = nameOf(id, resource, 'TableName');
      if (attr === 'Ref') return name;
      if (attr === 'Arn') return arn('dynamodb', `table/${name}`);
      if (attr === 'StreamArn') return arn('dynamodb', `table/${name}/stream/1970-01-01T00:00:00.000`);
      throw fail();
    }
    case 'AWS::SQS::Queue': {
      const name = nameOf(id, resource, 'QueueName');
      if (attr === 'Ref' || attr === 'QueueUrl') return `https://sqs.${REGION}.amazonaws.com/${ACCOUNT}/${name}`;
      if (attr === 'Arn') return arn('sqs', name);
      if (attr === 'QueueName') return name;
      throw fail();
    }
    case 'AWS::Events::EventBus': {
      const name = nameOf(id, resource, 'Name');
      if (attr === 'Ref' || attr === 'Name') return name;
      if (attr === 'Arn') return arn('events', `event-bus/${name}`);
      throw fail();
    }
    case 'AWS::S3::Bucket': {
      const name = nameOf(id, resource, 'BucketName').toLowerCase();
      if (attr === 'Ref') return name;
      if (attr === 'Arn') return `arn:${PARTITION}:s3:::${name}`;
      throw fail();
    }
    case 'AWS::SecretsManager::Secret': {
      const name = nameOf(id, resource, 'Name');
      if (attr === 'Ref' || attr === 'Id') return arn('secretsmanager', `secret:${name}-${SECRET_SUFFIX}`);
      throw fail();
    }
    case 'AWS::IAM::Role': {
      const name = nameOf(id, resource, 'RoleName');
      if (attr === 'Ref') return name;
      if (attr === 'Arn') return `arn:${PARTITION}:iam::${ACCOUNT}:role/${name}`;
      throw fail();
    }
    case 'AWS::Lambda::Function': {
      const name = nameOf(id, resource, 'FunctionName');
      if (attr === 'Ref') return name;
      if (attr === 'Arn') return arn('lambda', `function:${name}`);
      throw fail();
    }
    case 'AWS::Logs::LogGroup': {
      const name = nameOf(id, resource, 'LogGroupName');
      if (attr === 'Ref') return name;
      if (attr === 'Arn') return arn('logs', `log-group:${name}:*`);
      throw fail();
    }
    default:
      throw fail();
  }
}

const PSEUDO: Record<string, string> = {
  'AWS::Partition': PARTITION,
  'AWS::Region': REGION,
  'AWS::AccountId': ACCOUNT,
  'AWS::URLSuffix': 'amazonaws.com',
};

function resourceIn(stack: Stack, id: string): Resource {
  const resource = templateOf(stack).Resources[id];
  if (!resource) throw new Error(`No resource ${id} in ${stack.node.path}'s template`);
  return resource;
}

/**
 * A value of `stack`'s template as the canonical string CloudFormation would make of it: a nested
 * stack's parameter is what its parent passes, a nested stack's output what it outputs, an import
 * the exporting stack's value (as lib/templates.ts `resolveIn`, each reference read in its own
 * stack: two stacks may hold one logical id). Throws on what it cannot resolve.
 */
export function canonicalIn(stack: Stack, value: unknown): string {
  const list = canonicalListIn(stack, value);
  if (list.length !== 1) throw new Error(`A list where a string was expected: ${JSON.stringify(value)}`);
  return list[0];
}

function canonicalListIn(stack: Stack, value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap((item) => canonicalListIn(stack, item));
  if (!isIntrinsic(value)) throw new Error(`Not a value CloudFormation resolves: ${JSON.stringify(value)}`);
  const [[key, argument]] = Object.entries(value) as [[string, any]];
  switch (key) {
    case 'Ref': {
      if (argument in PSEUDO) return [PSEUDO[argument]];
      const parent = stack.nestedStackParent;
      if (parent && argument in (templateOf(stack).Parameters ?? {}))
        return canonicalListIn(parent, resourceIn(parent, nestedStackResourceId(stack)).Properties.Parameters[argument]);
      return [attribute(argument, resourceIn(stack, argument), 'Ref')];
    }
    case 'Fn::GetAtt': {
      const [id, attr] = (typeof argument === 'string' ? argument.split('.') : argument) as [string, string];
      if (attr.startsWith('Outputs.')) {
        const nested = nestedStacksOf(stack).find((n) => nestedStackResourceId(n) === id);
        if (nested) return canonicalListIn(nested, templateOf(nested).Outputs![attr.slice('Outputs.'.length)].Value);
      }
      return [attribute(id, resourceIn(stack, id), attr)];
    }
    case 'Fn::ImportValue': {
      const name = canonicalIn(stack, argument);
      for (const exporter of stack.node.root.node.children.filter(Stack.isStack)) {
        const output = Object.values(templateOf(exporter).Outputs ?? {}).find((o) => o.Export?.Name === name);
        if (output) return canonicalListIn(exporter, output.Value);
      }
      throw new Error(`No stack exports ${name}`);
    }
    case 'Fn::Join':
      return [canonicalListIn(stack, argument[1]).join(argument[0])];
    case 'Fn::Split':
      return canonicalIn(stack, argument[1]).split(argument[0]);
    case 'Fn::Select':
      return [canonicalListIn(stack, argument[1])[Number(argument[0])]];
    case 'Fn::Sub': {
      const [text, variables = {}] = (typeof argument === 'string' ? [argument, {}] : argument) as [string, Record<string, unknown>];
      return [
        text.replace(/\$\{([^}!][^}]*)\}/g, (_, name: string) => {
          if (name in variables) return canonicalIn(stack, variables[name]);
          if (name in PSEUDO) return PSEUDO[name];
          const [id, attr] = name.split('.');
          return attribute(id, resourceIn(stack, id), attr ?? 'Ref');
        }),
      ];
    }
    default:
      throw new Error(`${key} is not resolved locally (local/iam/template-model.ts): ${JSON.stringify(value)}`);
  }
}

/** Every intrinsic inside `value` (a statement, a condition) made canonical. */
function canonicalDeepIn(stack: Stack, value: unknown): unknown {
  if (isIntrinsic(value)) return canonicalIn(stack, value);
  if (Array.isArray(value)) return value.map((item) => canonicalDeepIn(stack, item));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, canonicalDeepIn(stack, v)]));
  return value;
}

const allStacks = (root: IConstruct): Stack[] => root.node.findAll().filter((c): c is Stack => Stack.isStack(c));

/** Synthesizes the app (bundling skipped) and reads the model of it: a few seconds. */
export function buildTemplateModel(): TemplateModel {
  const { app, data, compute } = buildAppWithoutBundling();
  const stacks = allStacks(app);
  /** A construct's `Ref` or attribute, read in its own stack. */
  const valueOf = (construct: IConstruct, attr = 'Arn') => {
    const stack = Stack.of(construct);
    return canonicalIn(stack, attr === 'Ref' ? { Ref: logicalIdOf(construct) } : { 'Fn::GetAtt': [logicalIdOf(construct), attr] });
  };

  const functions: TemplateModel['functions'] = {};
  for (const op of operations) {
    const fn = compute.functions[op.name];
    const role = fn.role!;
    const roleStack = Stack.of(role);
    const roleResource = resourceIn(roleStack, logicalIdOf(role));
    if (roleResource.Properties.ManagedPolicyArns?.length) throw new Error(`${op.name}: its role has managed policies, which the local stack does not read`);
    const roleName = valueOf(role, 'Ref');
    const policies: FunctionModel['policies'] = (roleResource.Properties.Policies ?? []).map((policy: { PolicyName: string; PolicyDocument: unknown }) => ({
      name: policy.PolicyName,
      document: canonicalDeepIn(roleStack, policy.PolicyDocument) as PolicyDocument,
    }));
    for (const stack of stacks) {
      for (const [id, resource] of Object.entries(templateOf(stack).Resources)) {
        if (resource.Type !== 'AWS::IAM::Policy' && resource.Type !== 'AWS::IAM::ManagedPolicy') continue;
        const roles = (resource.Properties.Roles ?? []) as unknown[];
        if (stack !== roleStack || !roles.some((r) => canonicalIn(stack, r) === roleName)) continue;
        policies.push({ name: id, document: canonicalDeepIn(stack, resource.Properties.PolicyDocument) as PolicyDocument });
      }
    }
    const fnStack = Stack.of(fn);
    const variables = (resourceIn(fnStack, logicalIdOf(fn)).Properties.Environment?.Variables ?? {}) as Record<string, unknown>;
    functions[op.name] = {
      role: roleName,
      policies,
      environment: Object.fromEntries(Object.entries(variables).map(([name, value]) => [name, canonicalIn(fnStack, value)])),
    };
  }

  const schedulerRoles = new Set(Object.values(functions).flatMap((f) => (f.environment.SCHEDULER_ROLE_ARN ? [f.environment.SCHEDULER_ROLE_ARN] : [])));
  if (schedulerRoles.size > 1) throw new Error(`The functions pass different scheduler roles: ${[...schedulerRoles].join(', ')}`);
  const byQueue = <T>(make: (name: QueueName) => T) =>
    Object.fromEntries((Object.keys(queueSettings) as QueueName[]).map((name) => [name, make(name)])) as Record<QueueName, T>;

  return {
    functions,
    resources: {
      table: { name: valueOf(data.table, 'Ref'), arn: valueOf(data.table), streamArn: valueOf(data.table, 'StreamArn') },
      queues: byQueue((name) => valueOf(data.queues[name])),
      deadLetterQueues: byQueue((name) => valueOf(data.deadLetterQueues[name])),
      streamFailureQueue: valueOf(data.streamFailureQueue),
      eventBus: { name: valueOf(data.eventBus, 'Ref'), arn: valueOf(data.eventBus) },
      mediaBucket: { name: valueOf(data.mediaBucket, 'Ref'), arn: valueOf(data.mediaBucket) },
      platformSecret: valueOf(data.platformSecret, 'Ref'),
      schedulerRole: [...schedulerRoles][0],
      scheduleGroups: [
        'default',
        ...stacks.flatMap((stack) =>
          Object.entries(templateOf(stack).Resources)
            .filter(([, resource]) => resource.Type === 'AWS::Scheduler::ScheduleGroup')
            .map(([id, resource]) => nameOf(id, resource, 'Name')),
        ),
      ],
    },
  };
}
