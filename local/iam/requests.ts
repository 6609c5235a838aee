import { queues as queueSettings, type QueueName } from '#shared/service/queues';
import { ACCOUNT, PARTITION, REGION, SECRET_SUFFIX, type TemplateResources } from '#local/iam/model';

/** One request IAM evaluates: an action on a resource (canonical ARN), with the request's context keys. */
export interface IamRequest {
  action: string;
  resource: string;
  context?: Record<string, string>;
}

/** A call that names a resource the template does not have, or a command the local stack cannot tell IAM's actions of: a bug to fix, not a denial. */
export class TemplateMismatchError extends Error {
  override name = 'TemplateMismatchError';
}

type Input = Record<string, any>;

const arn = (service: string, rest: string) => `arn:${PARTITION}:${service}:${REGION}:${ACCOUNT}:${rest}`;
const isQueueName = (name: string): name is QueueName => name in queueSettings;

/**
 * What the local stack's resources stand for in the template: its table (whatever TABLE_NAME a
 * suite gives it) is the template's table, its queue `send` the template's send queue, and so on.
 * A resource with no counterpart fails loudly: the function would call something the stack does
 * not deploy.
 */
export class LocalResources {
  constructor(private readonly template: TemplateResources) {}

  table(name: string | undefined): string {
    if (name && name === process.env.TABLE_NAME) return this.template.table.arn;
    throw new TemplateMismatchError(`Table ${name} is not the stack's table (TABLE_NAME ${process.env.TABLE_NAME})`);
  }

  index(table: string | undefined, index: string): string {
    return `${this.table(table)}/index/${index}`;
  }

  /** The table's stream: the template has one (a DynamoDB Local stream ARN names the local table). */
  stream(streamArn: string | undefined): string {
    if (streamArn === undefined || streamArn.includes(`:table/${process.env.TABLE_NAME}/stream/`)) return this.template.table.streamArn;
    throw new TemplateMismatchError(`Stream ${streamArn} is not the stack's table's stream`);
  }

  /** A queue by its URL (or name): local/runtime.ts names them `<queue>`, `<queue>-dead-letter` and `table-stream-failures`. */
  queue(urlOrName: string | undefined): string {
    const name = (urlOrName ?? '').split('/').pop() ?? '';
    if (isQueueName(name)) return this.template.queues[name];
    const deadLetters = name.replace(/-dead-letter$/, '');
    if (deadLetters !== name && isQueueName(deadLetters)) return this.template.deadLetterQueues[deadLetters];
    if (name === 'table-stream-failures') return this.template.streamFailureQueue;
    throw new TemplateMismatchError(`Queue ${urlOrName} has no counterpart in the template`);
  }

  /** A bus by name or ARN; none named is the account's default bus, which every account has. */
  bus(nameOrArn: string | undefined): string {
    if (nameOrArn === undefined || nameOrArn === 'default') return arn('events', 'event-bus/default');
    const name = nameOrArn.split('event-bus/').pop();
    if (name === this.template.eventBus.name || name === process.env.EVENT_BUS_NAME) return this.template.eventBus.arn;
    throw new TemplateMismatchError(`Event bus ${nameOrArn} has no counterpart in the template`);
  }

  bucket(name: string | undefined): string {
    if (name && name === process.env.MEDIA_BUCKET) return this.template.mediaBucket.arn;
    throw new TemplateMismatchError(`Bucket ${name} is not the stack's media bucket (MEDIA_BUCKET ${process.env.MEDIA_BUCKET})`);
  }

  object(bucket: string | undefined, key: string | undefined): string {
    return `${this.bucket(bucket)}/${key ?? ''}`;
  }

  schedule(group: string | undefined, name: string | undefined): string {
    const inGroup = group ?? 'default';
    if (!this.template.scheduleGroups.includes(inGroup)) throw new TemplateMismatchError(`Schedule group ${inGroup} has no counterpart in the template`);
    return arn('scheduler', `schedule/${inGroup}/${name ?? ''}`);
  }

  /** The role a schedule is given: the local stack's stand-in (SCHEDULER_ROLE_ARN) is the template's scheduler role. */
  role(roleArn: string | undefined): string {
    if (roleArn && roleArn === process.env.SCHEDULER_ROLE_ARN && this.template.schedulerRole) return this.template.schedulerRole;
    throw new TemplateMismatchError(`Role ${roleArn} has no counterpart in the template`);
  }

  /**
   * A secret by name or ARN: the platform secret (PLATFORM_SECRET_ARN), or one the functions make
   * at run time (a workspace's, by name). Real ARNs end in a random suffix, which the name lacks.
   */
  secret(id: string | undefined): string {
    if (!id) throw new TemplateMismatchError('A secret call names no secret');
    if (id === process.env.PLATFORM_SECRET_ARN) return this.template.platformSecret;
    if (id.startsWith('arn:')) {
      const name = id.split(':secret:').pop()!;
      return arn('secretsmanager', `secret:${name}`);
    }
    return arn('secretsmanager', `secret:${id}-${SECRET_SUFFIX}`);
  }
}

/** The document client's names (lib-dynamodb) of DynamoDB's operations. */
const DOCUMENT_NAMES: Record<string, string> = {
  Get: 'GetItem',
  Put: 'PutItem',
  Update: 'UpdateItem',
  Delete: 'DeleteItem',
  BatchGet: 'BatchGetItem',
  BatchWrite: 'BatchWriteItem',
  TransactWrite: 'TransactWriteItems',
  TransactGet: 'TransactGetItems',
};

/** Each item action of a transaction: IAM has no TransactWriteItems action; it checks every item's own. */
const TRANSACT_ACTIONS: Record<string, string> = { Put: 'PutItem', Update: 'UpdateItem', Delete: 'DeleteItem', ConditionCheck: 'ConditionCheckItem' };

type Mapper = (input: Input, resources: LocalResources) => IamRequest[];

const dynamodb = (action: string, resource: string): IamRequest => ({ action: `dynamodb:${action}`, resource });
const onTable =
  (action: string): Mapper =>
  (input, r) => [dynamodb(action, input.IndexName ? r.index(input.TableName, input.IndexName) : r.table(input.TableName))];

const DYNAMODB: Record<string, Mapper> = {
  GetItem: onTable('GetItem'),
  PutItem: onTable('PutItem'),
  UpdateItem: onTable('UpdateItem'),
  DeleteItem: onTable('DeleteItem'),
  Query: onTable('Query'),
  Scan: onTable('Scan'),
  DescribeTable: onTable('DescribeTable'),
  BatchGetItem: (input, r) => Object.keys(input.RequestItems ?? {}).map((table) => dynamodb('BatchGetItem', r.table(table))),
  BatchWriteItem: (input, r) => Object.keys(input.RequestItems ?? {}).map((table) => dynamodb('BatchWriteItem', r.table(table))),
  TransactWriteItems: (input, r) =>
    (input.TransactItems as Input[]).map((item) => {
      const [kind, operation] = Object.entries(item).find(([, value]) => value !== undefined) as [string, Input];
      return dynamodb(TRANSACT_ACTIONS[kind], r.table(operation.TableName));
    }),
  TransactGetItems: (input, r) => (input.TransactItems as Input[]).map((item) => dynamodb('GetItem', r.table(item.Get.TableName))),
};

const STREAMS: Record<string, Mapper> = {
  DescribeStream: (input, r) => [dynamodb('DescribeStream', r.stream(input.StreamArn))],
  GetShardIterator: (input, r) => [dynamodb('GetShardIterator', r.stream(input.StreamArn))],
  // An iterator stands for its stream, and the template has one.
  GetRecords: (_input, r) => [dynamodb('GetRecords', r.stream(undefined))],
  ListStreams: (input, r) => [dynamodb('ListStreams', input.TableName ? `${r.table(input.TableName)}/stream/*` : '*')],
};

const sqs =
  (action: string): Mapper =>
  (input, r) => [{ action: `sqs:${action}`, resource: r.queue(input.QueueUrl ?? input.QueueName) }];
const SQS: Record<string, Mapper> = {
  SendMessage: sqs('SendMessage'),
  SendMessageBatch: sqs('SendMessage'),
  ReceiveMessage: sqs('ReceiveMessage'),
  DeleteMessage: sqs('DeleteMessage'),
  DeleteMessageBatch: sqs('DeleteMessage'),
  ChangeMessageVisibility: sqs('ChangeMessageVisibility'),
  ChangeMessageVisibilityBatch: sqs('ChangeMessageVisibility'),
  GetQueueAttributes: sqs('GetQueueAttributes'),
  GetQueueUrl: sqs('GetQueueUrl'),
};

const EVENTS: Record<string, Mapper> = {
  PutEvents: (input, r) => (input.Entries as Input[]).map((entry) => ({ action: 'events:PutEvents', resource: r.bus(entry.EventBusName) })),
};

/** Passing the schedule's role to the Scheduler: iam:PassRole on it, for that service only. */
const passRole = (roleArn: string | undefined, r: LocalResources): IamRequest => ({
  action: 'iam:PassRole',
  resource: r.role(roleArn),
  context: { 'iam:PassedToService': 'scheduler.amazonaws.com' },
});
const schedule =
  (action: string): Mapper =>
  (input, r) => [{ action: `scheduler:${action}`, resource: r.schedule(input.GroupName, input.Name) }];
const SCHEDULER: Record<string, Mapper> = {
  CreateSchedule: (input, r) => [...schedule('CreateSchedule')(input, r), passRole(input.Target?.RoleArn, r)],
  UpdateSchedule: (input, r) => [...schedule('UpdateSchedule')(input, r), passRole(input.Target?.RoleArn, r)],
  DeleteSchedule: schedule('DeleteSchedule'),
  GetSchedule: schedule('GetSchedule'),
  // No resource-level permission: IAM evaluates it on `*`.
  ListSchedules: () => [{ action: 'scheduler:ListSchedules', resource: '*' }],
};

const secret =
  (action: string): Mapper =>
  (input, r) => [{ action: `secretsmanager:${action}`, resource: r.secret(input.SecretId ?? input.Name) }];
const SECRETS: Record<string, Mapper> = {
  GetSecretValue: secret('GetSecretValue'),
  DescribeSecret: secret('DescribeSecret'),
  PutSecretValue: secret('PutSecretValue'),
  CreateSecret: secret('CreateSecret'),
  UpdateSecret: secret('UpdateSecret'),
  DeleteSecret: secret('DeleteSecret'),
};

const object =
  (action: string): Mapper =>
  (input, r) => [{ action: `s3:${action}`, resource: r.object(input.Bucket, input.Key) }];
const S3: Record<string, Mapper> = {
  GetObject: object('GetObject'),
  HeadObject: object('GetObject'),
  PutObject: object('PutObject'),
  DeleteObject: object('DeleteObject'),
  DeleteObjects: (input, r) => (input.Delete?.Objects ?? []).map((o: Input) => ({ action: 's3:DeleteObject', resource: r.object(input.Bucket, o.Key) })),
  ListObjectsV2: (input, r) => [{ action: 's3:ListBucket', resource: r.bucket(input.Bucket) }],
};

/** The clients' commands by the SDK's client name (`DynamoDBClient`, …). */
const BY_CLIENT: Record<string, Record<string, Mapper>> = {
  DynamoDBClient: DYNAMODB,
  DynamoDBDocumentClient: DYNAMODB,
  DynamoDBStreamsClient: STREAMS,
  SQSClient: SQS,
  EventBridgeClient: EVENTS,
  SchedulerClient: SCHEDULER,
  SecretsManagerClient: SECRETS,
  S3Client: S3,
};

/** The service of each client, as its refusal is shaped (local/iam/refusal.ts). */
export const serviceOfClient = (clientName: string) => clientName.replace(/(Document)?Client$/, '');

/**
 * The IAM requests one SDK call makes, by the client's and the command's names and its input (the
 * resources named as the local stack names them). Throws TemplateMismatchError for a command this
 * does not know or a resource with no counterpart in the template.
 */
export function iamRequests(clientName: string, commandName: string, input: Input, resources: LocalResources): IamRequest[] {
  const operation = commandName.replace(/Command$/, '');
  const commands = BY_CLIENT[clientName];
  const mapper = commands?.[operation] ?? commands?.[DOCUMENT_NAMES[operation]];
  if (!mapper) throw new TemplateMismatchError(`${clientName} ${commandName}: no IAM actions known for it (local/iam/requests.ts)`);
  return mapper(input, resources);
}
