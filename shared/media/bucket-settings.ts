/** The inbound media bucket's rules, shared by the CDK stack and the code (contract §13). */
export const MEDIA_RETENTION_DAYS = 30;
/** How long a `media.url` handed to a client stays valid. */
export const MEDIA_LINK_SECONDS = 15 * 60;
/** Platform webhooks too large for a queue message wait here for their worker (a day, the lifecycle's least). */
export const STORED_WEBHOOKS_PREFIX = 'platform-webhooks/';
export const STORED_WEBHOOK_RETENTION_DAYS = 1;
