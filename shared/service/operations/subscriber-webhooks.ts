/** The service's events, published from the table stream, and their delivery to subscribers' webhooks, with the webhooks API. */
import { http, type Operation } from '#shared/service/operation';

export const subscriberWebhookOperations: Operation[] = [
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
];
