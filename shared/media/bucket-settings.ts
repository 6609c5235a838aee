/** The inbound media bucket's rules, shared by the CDK stack and the code (contract §13). */
export const MEDIA_RETENTION_DAYS = 30;
/** How long a `media.url` handed to a client stays valid. */
export const MEDIA_LINK_SECONDS = 15 * 60;
