import type { QueueName } from '#shared/service/queues';

/** The account and region every canonical ARN is in (local/iam/template-model.ts). */
export const ACCOUNT = '000000000000';
export const REGION = 'us-east-1';
export const PARTITION = 'aws';
/** The random suffix Secrets Manager gives every secret's ARN (the canonical one: a policy naming a secret by name alone misses it, as in AWS). */
export const SECRET_SUFFIX = 'AbCdEf';

export interface PolicyStatement {
  Sid?: string;
  Effect: 'Allow' | 'Deny';
  Action?: string | string[];
  NotAction?: string | string[];
  Resource?: string | string[];
  NotResource?: string | string[];
  Condition?: Record<string, Record<string, string | string[]>>;
}

export interface PolicyDocument {
  Version: string;
  Statement: PolicyStatement[];
}

/** A function of the template as the local stack checks it. */
export interface FunctionModel {
  /** Its role's name (canonical: the role's logical id). */
  role: string;
  /** The identity-based policies attached to its role, their references canonical. */
  policies: { name: string; document: PolicyDocument }[];
  /** Its environment variables in the template, values canonical. */
  environment: Record<string, string>;
}

/** The resources the functions call, canonical: what the local stack's own resources stand for (local/iam/resources.ts). */
export interface TemplateResources {
  table: { name: string; arn: string; streamArn: string };
  queues: Record<QueueName, string>;
  deadLetterQueues: Record<QueueName, string>;
  streamFailureQueue: string;
  eventBus: { name: string; arn: string };
  mediaBucket: { name: string; arn: string };
  platformSecret: string;
  /** The role the campaign schedules invoke their target with (SCHEDULER_ROLE_ARN). */
  schedulerRole?: string;
  /** Schedule groups: `default`, which every account has, and those the template makes. */
  scheduleGroups: string[];
}

export interface TemplateModel {
  functions: Record<string, FunctionModel>;
  resources: TemplateResources;
}
