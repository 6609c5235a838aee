/**
 * Messages: the API, the table stream's outbox that starts their sends and media copies, the send and
 * media workers, and the platform's webhooks that bring statuses and customers' messages.
 */
import { http, type Operation } from '#shared/service/operation';

export const messageOperations: Operation[] = [
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
];
