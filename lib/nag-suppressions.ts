/**
 * Every cdk-nag (AwsSolutions) acknowledgment of the project, with its reason. cdk-nag 3 uses
 * CDK's `Validations.of(construct).acknowledge()`; an acknowledgment covers the construct and
 * its children, so each one is attached as low in the tree as possible.
 */
import { Validations } from 'aws-cdk-lib';
import type { HttpRoute } from 'aws-cdk-lib/aws-apigatewayv2';
import type { ManagedPolicy } from 'aws-cdk-lib/aws-iam';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { ServiceFunction } from '#lib/service-function';

export function acknowledgePlatformSecretFindings(secret: ISecret): void {
  Validations.of(secret).acknowledge({
    id: 'AwsSolutions-SMG4',
    reason:
      'Holds third-party credentials issued by Meta (app secret, system-user access tokens) that AWS cannot rotate; ' +
      'the operator replaces them in the Meta app and then in this secret.',
  });
}

/** On each route: routes live in their area's stack (lib/areas.ts), outside the HTTP API's construct. */
export function acknowledgeHttpRouteFindings(route: HttpRoute): void {
  Validations.of(route).acknowledge({
    id: 'AwsSolutions-APIG4',
    reason:
      'By design, authentication happens in the function middleware: clients send Bearer API keys whose hashes are ' +
      'stored per workspace in DynamoDB (plans, revocation, usage); public routes (health, Meta webhooks verified by ' +
      'HMAC signature / verify token) must stay unauthenticated at the gateway. (The operator routes, /admin/v1, use IAM authorization.)',
  });
}

/** The policy that lets the operator's principals call /admin/v1 (lib/operator-access.ts). */
export function acknowledgeOperatorPolicyFindings(policy: ManagedPolicy): void {
  Validations.of(policy).acknowledge({
    id: 'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:execute-api:<AWS::Region>:<AWS::AccountId>:<HttpApiF5A9A8A7>/*/*/admin/v1/*]',
    reason:
      'execute-api:Invoke on the operator routes of this one HTTP API, every stage and method under /admin/v1: the operator manages ' +
      'every workspace through them (contract §19), and no route outside /admin/v1 is included.',
  });
}

export function acknowledgeServiceFunctionFindings(fn: ServiceFunction): void {
  Validations.of(fn).acknowledge({
    id: 'AwsSolutions-L1',
    reason:
      'Pinned to nodejs22.x on purpose: bundles target node22 and the code is tested on Node 20/22; moving to a newer ' +
      'runtime is a deliberate, tested change rather than an automatic one.',
  });
  Validations.of(fn.role!).acknowledge({
    id: 'AwsSolutions-IAM5[Resource::*]',
    reason:
      'Active X-Ray tracing needs xray:PutTraceSegments and xray:PutTelemetryRecords, which support no resource-level ' +
      'permissions. Table, index, log group and secret grants are all scoped to specific ARNs.',
  });
}

export function acknowledgeDeadLetterQueueFindings(queue: IQueue): void {
  Validations.of(queue).acknowledge({
    id: 'AwsSolutions-SQS3',
    reason:
      'This is a dead-letter queue (of a work queue, or the on-failure destination of the table stream consumer): what ' +
      'lands here is kept 14 days for inspection or redrive; a dead-letter queue of its own would only move the same messages again.',
  });
}

/** The dead-letter queue of the event bus rules' targets (BusDeliveryFailures). */
export function acknowledgeBusDeliveryFailureQueueFindings(queue: IQueue): void {
  Validations.of(queue).acknowledge({
    id: 'AwsSolutions-SQS3',
    reason:
      'This is the dead-letter queue of the event bus rules: EventBridge puts here, for 14 days, the events it could not ' +
      'deliver to a function after 185 attempts over 24 hours, for inspection or re-publishing; nothing consumes it, so ' +
      'a dead-letter queue of its own would never receive anything.',
  });
}

/** For functions that create and delete campaign schedules (access `scheduler` in shared/service/operations.ts). */
export function acknowledgeCampaignScheduleFindings(fn: ServiceFunction): void {
  Validations.of(fn.role!).acknowledge({
    id: 'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:scheduler:<AWS::Region>:<AWS::AccountId>:schedule/default/campaign-*]',
    reason:
      'Campaign schedules are created at run time, one per scheduled campaign, named campaign-<campaign id> in the default ' +
      'schedule group (shared/scheduler.ts), so their names are unknown at deploy time; the pattern limits ' +
      'scheduler:CreateSchedule/DeleteSchedule to those schedules, and iam:PassRole is limited to the one role that may only invoke the campaign starter.',
  });
}

export function acknowledgeMediaBucketFindings(bucket: IBucket): void {
  Validations.of(bucket).acknowledge({
    id: 'AwsSolutions-S1',
    reason:
      'Holds short-lived copies of inbound media (deleted after 30 days), written by one function and read only through ' +
      '15-minute presigned links the API hands out per request; API access logs and CloudTrail already record who asked.',
  });
}

/** Functions that read (every function with platform secrets) or write (onboarding) workspaces' own secrets. */
export function acknowledgeWorkspaceSecretsGrant(fn: ServiceFunction): void {
  Validations.of(fn.role!).acknowledge({
    id: 'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:secretsmanager:<AWS::Region>:<AWS::AccountId>:secret:messaging-api/workspaces/*]',
    reason:
      "Each workspace's business token from Embedded Signup is its own secret, created at run time by onboarding and named " +
      'messaging-api/workspaces/<workspace id> (Secrets Manager appends a random suffix to every ARN), so the names are unknown at deploy ' +
      'time; the pattern limits the functions to those secrets, reading them or (onboarding only) creating and updating them.',
  });
}

/** The workspace erasure's worker (access `erasure` in shared/service/operations.ts, docs/operator.md "Erasure"). */
export function acknowledgeErasureFindings(fn: ServiceFunction): void {
  Validations.of(fn.role!).acknowledge({
    id: 'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:scheduler:<AWS::Region>:<AWS::AccountId>:schedule/default/campaign-*]',
    reason:
      "An erased workspace's campaign schedules are named campaign-<campaign id>[-w<time>] at run time: scheduler:DeleteSchedule on " +
      'campaign schedules only.',
  });
  Validations.of(fn.role!).acknowledge({
    id: 'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:secretsmanager:<AWS::Region>:<AWS::AccountId>:secret:messaging-api/workspaces/*]',
    reason:
      "Each workspace's own secret is created at run time by onboarding, named messaging-api/workspaces/<workspace id> (Secrets " +
      'Manager appends a random suffix to every ARN): secretsmanager:DeleteSecret on those secrets only, no other secret of the account.',
  });
  Validations.of(fn.role!).acknowledge({
    id: 'AwsSolutions-IAM5[Resource::*]',
    reason:
      'scheduler:ListSchedules (to find an erased campaign’s send-window schedules by name prefix) supports no resource-level ' +
      'permissions, like X-Ray’s actions; the only writes it leads to are the DeleteSchedule calls scoped to campaign schedules.',
  });
}
