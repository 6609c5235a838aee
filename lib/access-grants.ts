import { Aws } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Access, Operation } from '#shared/service/operation';
import { DEFAULT_GRAPH_API_VERSION } from '#shared/platform/graph-version';
import { mediaObjectsArn } from '#lib/stateful-stack';
import type { ServiceFunction } from '#lib/service-function';
import { grantTableData, grantTableScan } from '#lib/table-access';
import { acknowledgeCampaignScheduleFindings, acknowledgeErasureFindings, acknowledgeWorkspaceSecretsGrant } from '#lib/nag-suppressions';
import type { ScheduleTarget, Wire, Wiring } from '#lib/wiring';

/**
 * shared/scheduler.ts names each schedule `campaign-<campaign id>` (or `…-w<time>`), in the default group. Pseudo
 * parameters even when the stack's env is known, so the ARN (and its cdk-nag acknowledgment) is the same everywhere.
 */
const campaignSchedulesArn = `arn:${Aws.PARTITION}:scheduler:${Aws.REGION}:${Aws.ACCOUNT_ID}:schedule/default/campaign-*`;

/** One entry per access kind: the least-privilege grants and settings an operation receives. */
const grantAccess: { [K in keyof Access]-?: Wire<NonNullable<Access[K]>> } = {
  table: (fn, mode, w) => {
    grantTableData(w.table, fn, mode);
    fn.addEnvironment('TABLE_NAME', w.table.tableName);
  },
  tableStream: (fn, _on, w) => {
    // Re-reads a failed batch's records: GetShardIterator and GetRecords on this table's stream.
    w.table.grantStreamRead(fn);
    fn.addEnvironment('TABLE_NAME', w.table.tableName);
    // Counts a failed batch again only if it was the counting function's (shared/domain/outbox/stream-failures.ts).
    fn.addEnvironment('MESSAGE_COUNTING_FUNCTION', soleMessageCounter(fn, w).functionName);
  },
  platformSecrets: (fn, _on, w) => {
    w.platformSecret.grantRead(fn);
    fn.addEnvironment('PLATFORM_SECRET_ARN', w.platformSecret.secretArn);
    // A workspace's own token (contract §19) is looked up before the shared one: read, and only under the workspaces' prefix.
    grantWorkspaceSecrets(fn, ['secretsmanager:GetSecretValue', 'secretsmanager:DescribeSecret']);
  },
  workspaceSecrets: (fn) => grantWorkspaceSecrets(fn, ['secretsmanager:CreateSecret', 'secretsmanager:PutSecretValue']),
  graphApi: (fn) => {
    // Overridable so a deployment can point at a Graph API simulator or pin another API version.
    fn.addEnvironment('GRAPH_API_BASE_URL', fn.node.tryGetContext('graphApiBaseUrl') ?? 'https://graph.facebook.com');
    fn.addEnvironment('GRAPH_API_VERSION', fn.node.tryGetContext('graphApiVersion') ?? DEFAULT_GRAPH_API_VERSION);
  },
  queues: (fn, names, w) => {
    for (const name of names) {
      w.queues[name].grantSendMessages(fn);
      fn.addEnvironment(`${name.toUpperCase()}_QUEUE_URL`, w.queues[name].queueUrl);
    }
  },
  scheduler: (fn, _on, w) => {
    const target = soleScheduleTarget(fn, w);
    fn.addEnvironment('CAMPAIGN_SCHEDULE_TARGET_ARN', target.fn.functionArn);
    fn.addEnvironment('SCHEDULER_ROLE_ARN', target.role.roleArn);
    fn.addToRolePolicy(new PolicyStatement({ actions: ['scheduler:CreateSchedule', 'scheduler:DeleteSchedule'], resources: [campaignSchedulesArn] }));
    // CreateSchedule passes the target's role to Scheduler: that role only, and only to Scheduler.
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['iam:PassRole'],
        resources: [target.role.roleArn],
        conditions: { StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } },
      }),
    );
    acknowledgeCampaignScheduleFindings(fn);
  },
  media: (fn, mode, w) => {
    // Objects only, never the bucket: GetObject to sign links to copies, PutObject to store them. The objects are
    // named by workspace and message id at run time, so the grant is on the one bucket's objects (its exported ARN).
    const actions = mode === 'readWrite' ? ['s3:GetObject', 's3:PutObject'] : ['s3:GetObject'];
    fn.addToRolePolicy(new PolicyStatement({ actions, resources: [mediaObjectsArn] }));
    fn.addEnvironment('MEDIA_BUCKET', w.mediaBucket.bucketName);
    fn.addEnvironment('MEDIA_BUCKET_OWNER', Aws.ACCOUNT_ID);
  },
  bus: (fn, _on, w) => {
    // events:PutEvents on the bus's ARN only (not the default bus, not `*`).
    w.eventBus.grantPutEventsTo(fn);
    fn.addEnvironment('EVENT_BUS_NAME', w.eventBus.eventBusName);
  },
  erasure: (fn, _on, w) => {
    // Its items, whatever their record: one Scan of the table per pass (shared/data/workspace-erasure.ts).
    grantTableScan(w.table, fn);
    // A workspace's media copies: listed by its prefix (ListBucket, on the bucket) and deleted (DeleteObject, on the bucket's objects).
    fn.addToRolePolicy(new PolicyStatement({ actions: ['s3:ListBucket'], resources: [w.mediaBucket.bucketArn] }));
    fn.addToRolePolicy(new PolicyStatement({ actions: ['s3:DeleteObject'], resources: [mediaObjectsArn] }));
    fn.addEnvironment('MEDIA_BUCKET', w.mediaBucket.bucketName);
    fn.addEnvironment('MEDIA_BUCKET_OWNER', Aws.ACCOUNT_ID);
    // Its campaigns' schedules: ListSchedules has no resource-level permission; deletion only of campaign schedules.
    fn.addToRolePolicy(new PolicyStatement({ actions: ['scheduler:ListSchedules'], resources: ['*'] }));
    fn.addToRolePolicy(new PolicyStatement({ actions: ['scheduler:DeleteSchedule'], resources: [campaignSchedulesArn] }));
    // Its own secret, and no other secret of the account.
    fn.addToRolePolicy(new PolicyStatement({ actions: ['secretsmanager:DeleteSecret'], resources: [workspaceSecretsArn] }));
    fn.addEnvironment('WORKSPACE_SECRETS_PREFIX', WORKSPACE_SECRETS_PREFIX);
    acknowledgeErasureFindings(fn);
  },
};

/**
 * Workspaces' own secrets are named `messaging-api/workspaces/<workspace id>` (one deployment per
 * account and region, like the event bus), created at run time by onboarding: the functions may
 * touch those secrets only, never another secret of the account.
 */
export const WORKSPACE_SECRETS_PREFIX = 'messaging-api';
const workspaceSecretsArn = `arn:${Aws.PARTITION}:secretsmanager:${Aws.REGION}:${Aws.ACCOUNT_ID}:secret:${WORKSPACE_SECRETS_PREFIX}/workspaces/*`;

function grantWorkspaceSecrets(fn: ServiceFunction, actions: string[]): void {
  fn.addToRolePolicy(new PolicyStatement({ actions, resources: [workspaceSecretsArn] }));
  fn.addEnvironment('WORKSPACE_SECRETS_PREFIX', WORKSPACE_SECRETS_PREFIX);
  acknowledgeWorkspaceSecretsGrant(fn);
}

/** The function that counts messages from the stream: MESSAGE_COUNTING_FUNCTION names one, so there must be exactly one. */
function soleMessageCounter(fn: ServiceFunction, w: Wiring): ServiceFunction {
  if (w.messageCounters.length !== 1) {
    throw new Error(
      `${fn.node.id} has access 'tableStream', which needs exactly one 'tableStream' trigger with countsMessages in shared/service/operations.ts (found ${w.messageCounters.length})`,
    );
  }
  return w.messageCounters[0];
}

/** The schedules' target: CAMPAIGN_SCHEDULE_TARGET_ARN is one function, so there must be exactly one. */
function soleScheduleTarget(fn: ServiceFunction, w: Wiring): ScheduleTarget {
  if (w.scheduleTargets.length !== 1) {
    const found = w.scheduleTargets.map((t) => t.fn.node.id).join(', ') || 'none';
    throw new Error(
      `${fn.node.id} has access 'scheduler', which needs exactly one operation with trigger 'scheduleTarget' in shared/service/operations.ts (found: ${found})`,
    );
  }
  return w.scheduleTargets[0];
}

/** Grants the operation's function what its access names, with the settings that go with it. */
export function grantAccessOf(fn: ServiceFunction, op: Operation, w: Wiring): void {
  for (const kind of Object.keys(op.access) as (keyof Access)[]) {
    const value = op.access[kind];
    if (value) (grantAccess[kind] as Wire<typeof value>)(fn, value, w);
  }
}
