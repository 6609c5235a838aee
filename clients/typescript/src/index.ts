export { createMessagingClient, type MessagingClient, type MessagingClientOptions } from './client';
export { IDEMPOTENT_OPERATIONS } from './idempotency';
export type { RetryOptions } from './retry';
export { verifyWebhook, WebhookVerificationError, type WebhookEvent, type WebhookEventType } from './webhooks';
export type { components, operations, paths, webhooks } from './schema';
