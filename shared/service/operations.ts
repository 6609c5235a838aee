/**
 * Every operation of the service, once, as data. The CDK stack turns each entry into a
 * Lambda function with its route, queue or schedule and its grants; the local stack
 * turns the same list into an HTTP server, queue pollers and timers.
 * Adding an operation = one handler file + one entry here.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

import type { QueueName } from '#shared/service/queues';

export type Trigger =
  /**
   * `path` uses API Gateway's `{param}` syntax. Authentication is the handler's middleware, except
   * `operator` routes (/admin/v1, contract §19): in AWS the gateway's IAM authorization admits only
   * the principals the deployment grants, and their middleware refuses anyone else.
   */
  | { type: 'http'; method: HttpMethod; path: string; operator?: true }
  /** Catches every request no other route matched (API Gateway's `$default` route). */
  | { type: 'httpDefault' }
  | { type: 'schedule'; everyMinutes: number }
  /** SQS event source with partial batch responses. */
  | { type: 'queue'; queue: QueueName; batchSize: number }
  /** The jobs a queue gave up on (its dead-letter queue), to end their work in a final state. */
  | { type: 'deadLetters'; queue: QueueName; batchSize: number }
  /**
   * The table's stream (new and old images), in order per item, retried until it succeeds.
   * `countsMessages`: the one function that counts messages from it (shared/domain/outbox/counts.ts);
   * its failed batches are retried as received, never split, so each is counted once.
   * `batchingWindowSeconds`: how long a batch that is not full gathers records (Lambda's
   * MaximumBatchingWindowInSeconds; 0 when left out): fewer, fuller batches for some delay.
   * `reads`: the records it is given, the others filtered out before it is invoked
   * (shared/data/table/stream-filters.ts).
   */
  | { type: 'tableStream'; batchSize: number; reads: 'followUps' | 'changes'; countsMessages?: true; batchingWindowSeconds?: number }
  /** The table stream's on-failure queue: batches the stream functions gave up on. */
  | { type: 'streamFailures'; batchSize: number }
  /** Invoked by one-time EventBridge Scheduler schedules that other operations create. */
  | { type: 'scheduleTarget' }
  /** A rule on the service's event bus: events of these detail types (`*`: all) from the service. */
  | { type: 'busRule'; detailTypes: string[] };

export interface Access {
  table?: 'read' | 'readWrite';
  /**
   * Platform secrets (app secret, verify token, access tokens), and reading workspaces' own
   * secrets (their tokens from Embedded Signup, contract §19), which a workspace's token is looked up in first.
   */
  platformSecrets?: boolean;
  /** Creates and updates workspaces' own secrets (onboarding stores a workspace's token). */
  workspaceSecrets?: 'readWrite';
  /** Calls the WhatsApp Graph API (network egress, base URL setting). */
  graphApi?: boolean;
  /** Queues it sends jobs to (or changes the visibility of its own jobs on); each gets `{NAME}_QUEUE_URL`. */
  queues?: QueueName[];
  /** Creates and deletes the one-time schedules that invoke the `scheduleTarget` operation. */
  scheduler?: boolean;
  /** Publishes events to the service's event bus (`EVENT_BUS_NAME`). */
  bus?: boolean;
  /** Reads the table's stream (re-reading a failed batch's records). */
  tableStream?: boolean;
  /** The media bucket (`MEDIA_BUCKET`): `read` gets objects (and presigns links to copies), `readWrite` also stores them. */
  media?: 'read' | 'readWrite';
  /**
   * Erases workspaces: scans the table (the one operation that may), lists and deletes objects of
   * the media bucket, lists and deletes campaign schedules, and deletes workspaces' own secrets
   * (`{prefix}/workspaces/*` only).
   */
  erasure?: boolean;
}

export interface Operation {
  /** PascalCase; becomes the function's construct id. */
  name: string;
  /** Handler module under the project root, exporting `handler`. */
  handler: string;
  trigger: Trigger;
  access: Access;
  timeoutSeconds?: number;
  memoryMb?: number;
  /**
   * Files of npm packages the handler serves (`package/path`), read at run time rather than
   * bundled: the CDK stack copies each beside the function's bundle, the local stack reads it
   * from node_modules (shared/http/package-file.ts).
   */
  packageFiles?: string[];
}

const http = (method: HttpMethod, path: string): Trigger => ({ type: 'http', method, path });
const operatorRoute = (method: HttpMethod, path: string): Trigger => ({ type: 'http', method, path, operator: true });
/** Workspaces' numbers are read from (and connected on) the platform; their templates synced. */
const onPlatform: Access = { table: 'readWrite', platformSecrets: true, graphApi: true };

/** The API reference's renderer (Redoc's self-contained browser build), served by the deployment itself. */
export const REDOC_SCRIPT = 'redoc/bundles/redoc.standalone.js';

export const operations: Operation[] = [
  { name: 'Health', handler: 'functions/health.ts', trigger: http('GET', '/health'), access: {} },
  { name: 'OpenApi', handler: 'functions/openapi.ts', trigger: http('GET', '/api/v1/openapi.json'), access: {} },
  { name: 'ApiReference', handler: 'functions/api-reference.ts', trigger: http('GET', '/docs'), access: {} },
  {
    name: 'ApiReferenceScript',
    handler: 'functions/api-reference-script.ts',
    trigger: http('GET', '/docs/redoc.standalone.js'),
    access: {},
    packageFiles: [REDOC_SCRIPT],
  },
  { name: 'RouteNotFound', handler: 'functions/route-not-found.ts', trigger: { type: 'httpDefault' }, access: {} },

  { name: 'ListKeys', handler: 'functions/keys/list.ts', trigger: http('GET', '/api/v1/keys'), access: { table: 'readWrite' } },
  { name: 'CreateKey', handler: 'functions/keys/create.ts', trigger: http('POST', '/api/v1/keys'), access: { table: 'readWrite' } },
  { name: 'RevokeKey', handler: 'functions/keys/revoke.ts', trigger: http('DELETE', '/api/v1/keys'), access: { table: 'readWrite' } },

  { name: 'GetUsage', handler: 'functions/usage/get.ts', trigger: http('GET', '/api/v1/usage'), access: { table: 'readWrite' } },

  {
    name: 'ListNumbers',
    handler: 'functions/numbers/list.ts',
    trigger: http('GET', '/api/v1/numbers'),
    access: { table: 'readWrite', platformSecrets: true, graphApi: true },
  },
  {
    name: 'ConnectNumber',
    handler: 'functions/numbers/connect.ts',
    trigger: http('POST', '/api/v1/numbers'),
    access: { table: 'readWrite', platformSecrets: true, graphApi: true },
  },
  {
    name: 'UpdateNumber',
    handler: 'functions/numbers/update.ts',
    trigger: http('PATCH', '/api/v1/numbers/{id}'),
    access: { table: 'readWrite', platformSecrets: true, graphApi: true },
  },
  {
    name: 'DisconnectNumber',
    handler: 'functions/numbers/disconnect.ts',
    trigger: http('DELETE', '/api/v1/numbers/{id}'),
    access: { table: 'readWrite', platformSecrets: true, graphApi: true },
  },
  {
    name: 'ListTemplates',
    handler: 'functions/templates/list.ts',
    trigger: http('GET', '/api/v1/templates'),
    // The accounts it holds are its numbers' (shared/domain/numbers/numbers.ts): the first one's details are read once from the platform.
    access: { table: 'readWrite', platformSecrets: true, graphApi: true },
  },
  {
    name: 'SyncTemplates',
    handler: 'functions/templates/sync.ts',
    trigger: http('POST', '/api/v1/templates/sync'),
    access: { table: 'readWrite', platformSecrets: true, graphApi: true },
    timeoutSeconds: 29,
  },
  {
    name: 'CreateTemplate',
    handler: 'functions/templates/create.ts',
    trigger: http('POST', '/api/v1/templates'),
    access: { table: 'readWrite', platformSecrets: true, graphApi: true },
    timeoutSeconds: 29,
  },
  {
    name: 'UpdateTemplate',
    handler: 'functions/templates/update.ts',
    trigger: http('PATCH', '/api/v1/templates/{id}'),
    access: { table: 'readWrite', platformSecrets: true, graphApi: true },
    timeoutSeconds: 29,
  },
  {
    name: 'DeleteTemplate',
    handler: 'functions/templates/delete.ts',
    trigger: http('DELETE', '/api/v1/templates/{id}'),
    access: { table: 'readWrite', platformSecrets: true, graphApi: true },
    timeoutSeconds: 29,
  },
  {
    name: 'SyncAllTemplates',
    handler: 'functions/templates/sync-all.ts',
    trigger: { type: 'schedule', everyMinutes: 15 },
    access: { table: 'readWrite', platformSecrets: true, graphApi: true },
    timeoutSeconds: 300,
  },

  { name: 'UpsertContact', handler: 'functions/contacts/upsert.ts', trigger: http('POST', '/api/v1/contacts'), access: { table: 'readWrite' } },
  { name: 'ListContacts', handler: 'functions/contacts/list.ts', trigger: http('GET', '/api/v1/contacts'), access: { table: 'readWrite' } },
  {
    name: 'ImportContacts',
    handler: 'functions/contacts/bulk.ts',
    trigger: http('POST', '/api/v1/contacts/bulk'),
    access: { table: 'readWrite' },
    timeoutSeconds: 29,
  },
  { name: 'GetContact', handler: 'functions/contacts/get.ts', trigger: http('GET', '/api/v1/contacts/{id}'), access: { table: 'readWrite' } },
  { name: 'UpdateContact', handler: 'functions/contacts/update.ts', trigger: http('PATCH', '/api/v1/contacts/{id}'), access: { table: 'readWrite' } },
  { name: 'DeleteContact', handler: 'functions/contacts/delete.ts', trigger: http('DELETE', '/api/v1/contacts/{id}'), access: { table: 'readWrite' } },

  { name: 'CreateGroup', handler: 'functions/groups/create.ts', trigger: http('POST', '/api/v1/groups'), access: { table: 'readWrite' } },
  { name: 'ListGroups', handler: 'functions/groups/list.ts', trigger: http('GET', '/api/v1/groups'), access: { table: 'readWrite' } },
  { name: 'GetGroup', handler: 'functions/groups/get.ts', trigger: http('GET', '/api/v1/groups/{id}'), access: { table: 'readWrite' } },
  {
    name: 'DeleteGroup',
    handler: 'functions/groups/delete.ts',
    trigger: http('DELETE', '/api/v1/groups/{id}'),
    access: { table: 'readWrite' },
    timeoutSeconds: 29,
  },
  {
    name: 'ListGroupMembers',
    handler: 'functions/groups/list-members.ts',
    trigger: http('GET', '/api/v1/groups/{id}/contacts'),
    access: { table: 'readWrite' },
  },
  {
    name: 'AddGroupMembers',
    handler: 'functions/groups/add-members.ts',
    trigger: http('POST', '/api/v1/groups/{id}/contacts'),
    access: { table: 'readWrite' },
    timeoutSeconds: 29,
  },
  {
    name: 'RemoveGroupMembers',
    handler: 'functions/groups/remove-members.ts',
    trigger: http('DELETE', '/api/v1/groups/{id}/contacts'),
    access: { table: 'readWrite' },
    timeoutSeconds: 29,
  },

  {
    name: 'SendMessage',
    handler: 'functions/messages/send.ts',
    trigger: http('POST', '/api/v1/messages'),
    // `from` naming another number reads the workspace's numbers, the first one's details once from the platform.
    access: { table: 'readWrite', platformSecrets: true, graphApi: true },
  },
  // Its timeout bounds how long a list reads after its admission: the widening delay of data/message-list-shards.ts is longer.
  { name: 'ListMessages', handler: 'functions/messages/list.ts', trigger: http('GET', '/api/v1/messages'), access: { table: 'readWrite' }, timeoutSeconds: 10 },
  {
    name: 'MarkMessageRead',
    handler: 'functions/messages/read.ts',
    trigger: http('POST', '/api/v1/messages/{id}/read'),
    access: { table: 'readWrite', platformSecrets: true, graphApi: true },
  },
  { name: 'GetMessage', handler: 'functions/messages/get.ts', trigger: http('GET', '/api/v1/messages/{id}'), access: { table: 'readWrite', media: 'read' } },
  {
    name: 'TableOutbox',
    handler: 'functions/table-stream/outbox.ts',
    trigger: { type: 'tableStream', batchSize: 100, reads: 'followUps' },
    // The table: contacts' search entries (shared/data/contact-search.ts).
    access: { table: 'readWrite', queues: ['send', 'fanout', 'media'], scheduler: true },
    timeoutSeconds: 30,
  },
  {
    name: 'TableStreamFailures',
    handler: 'functions/table-stream/failures.ts',
    trigger: { type: 'streamFailures', batchSize: 1 },
    access: { table: 'readWrite', tableStream: true, queues: ['send', 'fanout', 'media'], scheduler: true },
    timeoutSeconds: 60,
  },
  {
    name: 'SendWorker',
    handler: 'functions/messages/send-worker.ts',
    trigger: { type: 'queue', queue: 'send', batchSize: 10 },
    access: { table: 'readWrite', platformSecrets: true, graphApi: true, queues: ['send'], scheduler: true },
    timeoutSeconds: 60,
  },

  {
    name: 'VerifyPlatformWebhook',
    handler: 'functions/platform-webhooks/verify.ts',
    trigger: http('GET', '/webhooks/whatsapp'),
    access: { platformSecrets: true },
  },
  {
    name: 'ReceivePlatformWebhook',
    handler: 'functions/platform-webhooks/receive.ts',
    trigger: http('POST', '/webhooks/whatsapp'),
    // A body too large for a queue message is kept in the bucket and queued by reference.
    access: { platformSecrets: true, queues: ['inbound'], media: 'readWrite' },
  },
  {
    name: 'PlatformWebhookWorker',
    handler: 'functions/platform-webhooks/process-worker.ts',
    trigger: { type: 'queue', queue: 'inbound', batchSize: 10 },
    access: { table: 'readWrite', media: 'read' },
    timeoutSeconds: 30,
  },
  {
    name: 'SendDeadLetters',
    handler: 'functions/messages/send-dead-letters.ts',
    trigger: { type: 'deadLetters', queue: 'send', batchSize: 10 },
    access: { table: 'readWrite' },
    timeoutSeconds: 30,
  },
  {
    name: 'MediaCopyWorker',
    handler: 'functions/messages/media-worker.ts',
    trigger: { type: 'queue', queue: 'media', batchSize: 1 },
    // Its own queue: a download that fails comes back after a back-off (shared/sqs-worker.ts, MEDIA_QUEUE_URL).
    access: { table: 'readWrite', platformSecrets: true, graphApi: true, media: 'readWrite', queues: ['media'] },
    timeoutSeconds: 60,
    memoryMb: 512,
  },

  {
    name: 'CreateCampaign',
    handler: 'functions/campaigns/create.ts',
    trigger: http('POST', '/api/v1/campaigns'),
    access: { table: 'readWrite', platformSecrets: true, graphApi: true },
  },
  { name: 'ListCampaigns', handler: 'functions/campaigns/list.ts', trigger: http('GET', '/api/v1/campaigns'), access: { table: 'readWrite' } },
  { name: 'GetCampaign', handler: 'functions/campaigns/get.ts', trigger: http('GET', '/api/v1/campaigns/{id}'), access: { table: 'readWrite' } },
  {
    name: 'GetCampaignResults',
    handler: 'functions/campaigns/results.ts',
    trigger: http('GET', '/api/v1/campaigns/{id}/results'),
    access: { table: 'readWrite' },
  },
  {
    name: 'LaunchCampaign',
    handler: 'functions/campaigns/launch.ts',
    trigger: http('POST', '/api/v1/campaigns/{id}/launch'),
    access: { table: 'readWrite', platformSecrets: true, graphApi: true },
    timeoutSeconds: 29,
  },
  {
    name: 'EstimateCampaign',
    handler: 'functions/campaigns/estimate.ts',
    trigger: http('POST', '/api/v1/campaigns/{id}/estimate'),
    access: { table: 'readWrite', platformSecrets: true, graphApi: true },
    timeoutSeconds: 29,
  },
  { name: 'CancelCampaign', handler: 'functions/campaigns/cancel.ts', trigger: http('POST', '/api/v1/campaigns/{id}/cancel'), access: { table: 'readWrite' } },
  { name: 'ResumeCampaign', handler: 'functions/campaigns/resume.ts', trigger: http('POST', '/api/v1/campaigns/{id}/resume'), access: { table: 'readWrite' } },
  {
    name: 'TestCampaign',
    handler: 'functions/campaigns/test.ts',
    trigger: http('POST', '/api/v1/campaigns/{id}/test'),
    access: { table: 'readWrite', platformSecrets: true, graphApi: true },
  },
  { name: 'RetryCampaign', handler: 'functions/campaigns/retry.ts', trigger: http('POST', '/api/v1/campaigns/{id}/retry'), access: { table: 'readWrite' } },
  {
    name: 'FanoutWorker',
    handler: 'functions/campaigns/fanout-worker.ts',
    trigger: { type: 'queue', queue: 'fanout', batchSize: 1 },
    access: { table: 'readWrite', queues: ['fanout'], scheduler: true },
    timeoutSeconds: 300,
  },
  {
    name: 'FanoutDeadLetters',
    handler: 'functions/campaigns/fanout-dead-letters.ts',
    trigger: { type: 'deadLetters', queue: 'fanout', batchSize: 1 },
    access: { table: 'readWrite', queues: ['fanout'] },
    timeoutSeconds: 90,
  },
  // Named for its first job; it also resumes send windows. The name stays: schedules created before an upgrade target its ARN.
  {
    name: 'StartScheduledCampaign',
    handler: 'functions/campaigns/run-schedule.ts',
    trigger: { type: 'scheduleTarget' },
    access: { table: 'readWrite', queues: ['send'] },
    timeoutSeconds: 300,
  },

  {
    name: 'PublishEvents',
    handler: 'functions/table-stream/publish-events.ts',
    // Counts trail the messages by at most the window plus a batch (docs/messaging.md §6); events to subscribers likewise.
    trigger: { type: 'tableStream', batchSize: 100, reads: 'changes', countsMessages: true, batchingWindowSeconds: 1 },
    access: { table: 'readWrite', bus: true },
    timeoutSeconds: 30,
  },
  {
    name: 'DispatchWebhooks',
    handler: 'functions/subscriber-webhooks/dispatch-worker.ts',
    trigger: { type: 'busRule', detailTypes: ['*'] },
    access: { table: 'readWrite', queues: ['webhook'] },
    timeoutSeconds: 30,
  },
  {
    name: 'WebhookDeliveryWorker',
    handler: 'functions/subscriber-webhooks/deliver-worker.ts',
    trigger: { type: 'queue', queue: 'webhook', batchSize: 10 },
    access: { table: 'readWrite', queues: ['webhook'] },
    timeoutSeconds: 50,
  },
  { name: 'CreateWebhook', handler: 'functions/subscriber-webhooks/create.ts', trigger: http('POST', '/api/v1/webhooks'), access: { table: 'readWrite' } },
  { name: 'ListWebhooks', handler: 'functions/subscriber-webhooks/list.ts', trigger: http('GET', '/api/v1/webhooks'), access: { table: 'readWrite' } },
  { name: 'GetWebhook', handler: 'functions/subscriber-webhooks/get.ts', trigger: http('GET', '/api/v1/webhooks/{id}'), access: { table: 'readWrite' } },
  {
    name: 'UpdateWebhook',
    handler: 'functions/subscriber-webhooks/update.ts',
    trigger: http('PATCH', '/api/v1/webhooks/{id}'),
    access: { table: 'readWrite' },
  },
  {
    name: 'DeleteWebhook',
    handler: 'functions/subscriber-webhooks/delete.ts',
    trigger: http('DELETE', '/api/v1/webhooks/{id}'),
    access: { table: 'readWrite' },
  },
  {
    name: 'TestWebhook',
    handler: 'functions/subscriber-webhooks/test.ts',
    trigger: http('POST', '/api/v1/webhooks/{id}/test'),
    access: { table: 'readWrite', queues: ['webhook'] },
    timeoutSeconds: 20,
  },
  {
    name: 'RotateWebhookSecret',
    handler: 'functions/subscriber-webhooks/rotate-secret.ts',
    trigger: http('POST', '/api/v1/webhooks/{id}/rotate-secret'),
    access: { table: 'readWrite' },
  },
  {
    name: 'ListWebhookDeliveries',
    handler: 'functions/subscriber-webhooks/deliveries.ts',
    trigger: http('GET', '/api/v1/webhooks/{id}/deliveries'),
    access: { table: 'readWrite' },
  },
  {
    name: 'RetryWebhookDelivery',
    handler: 'functions/subscriber-webhooks/retry-delivery.ts',
    trigger: http('POST', '/api/v1/webhooks/{id}/deliveries/{delivery_id}/retry'),
    access: { table: 'readWrite', queues: ['webhook'] },
  },

  // The operator's API (contract §19).
  {
    name: 'CreateWorkspace',
    handler: 'functions/admin/create-workspace.ts',
    trigger: operatorRoute('POST', '/admin/v1/workspaces'),
    access: onPlatform,
    timeoutSeconds: 29,
  },
  {
    name: 'ListWorkspaces',
    handler: 'functions/admin/list-workspaces.ts',
    trigger: operatorRoute('GET', '/admin/v1/workspaces'),
    access: onPlatform,
    timeoutSeconds: 29,
  },
  { name: 'GetWorkspace', handler: 'functions/admin/get-workspace.ts', trigger: operatorRoute('GET', '/admin/v1/workspaces/{id}'), access: onPlatform },
  { name: 'UpdateWorkspace', handler: 'functions/admin/update-workspace.ts', trigger: operatorRoute('PATCH', '/admin/v1/workspaces/{id}'), access: onPlatform },
  {
    name: 'CreateWorkspaceKey',
    handler: 'functions/admin/create-key.ts',
    trigger: operatorRoute('POST', '/admin/v1/workspaces/{id}/keys'),
    access: { table: 'readWrite' },
  },
  {
    name: 'ListWorkspaceNumbers',
    handler: 'functions/admin/list-numbers.ts',
    trigger: operatorRoute('GET', '/admin/v1/workspaces/{id}/numbers'),
    access: onPlatform,
  },
  {
    name: 'ConnectWorkspaceNumber',
    handler: 'functions/admin/connect-number.ts',
    trigger: operatorRoute('POST', '/admin/v1/workspaces/{id}/numbers'),
    access: onPlatform,
    timeoutSeconds: 29,
  },
  {
    name: 'OnboardWorkspace',
    handler: 'functions/admin/onboard.ts',
    trigger: operatorRoute('POST', '/admin/v1/workspaces/{id}/onboarding'),
    access: { ...onPlatform, workspaceSecrets: 'readWrite' },
    timeoutSeconds: 29,
  },
  {
    name: 'DeleteWorkspace',
    handler: 'functions/admin/delete-workspace.ts',
    trigger: operatorRoute('DELETE', '/admin/v1/workspaces/{id}'),
    access: { table: 'readWrite', queues: ['erasure'] },
  },
  {
    name: 'EraseWorkspace',
    handler: 'functions/admin/erasure-worker.ts',
    trigger: { type: 'queue', queue: 'erasure', batchSize: 1 },
    access: { table: 'readWrite', queues: ['erasure'], erasure: true },
    timeoutSeconds: 300,
  },
  {
    name: 'SetWorkspaceRateCard',
    handler: 'functions/admin/set-rate-card.ts',
    trigger: operatorRoute('PUT', '/admin/v1/workspaces/{id}/rate-card'),
    access: { table: 'readWrite' },
  },
  {
    name: 'GetWorkspaceRateCard',
    handler: 'functions/admin/get-rate-card.ts',
    trigger: operatorRoute('GET', '/admin/v1/workspaces/{id}/rate-card'),
    access: { table: 'read' },
  },
  {
    name: 'SetNumberThroughput',
    handler: 'functions/admin/set-number-throughput.ts',
    trigger: operatorRoute('PATCH', '/admin/v1/numbers/{id}'),
    access: { table: 'readWrite' },
  },
];
