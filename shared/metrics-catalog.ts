/**
 * The service's business metrics, by name: the functions emit them (shared/metrics.ts, embedded
 * metric format) and the CDK stack builds the alarms and the dashboard from the same names, so
 * the two cannot drift. Every metric but SpendBilled (an amount) is a count, in the namespace
 * below, with the dimension `service` (Powertools' default) set to the service name.
 */
export const METRICS_NAMESPACE = 'MessagingApi';
export const SERVICE_NAME = 'messaging-api';

export const BusinessMetric = {
  /** A single message accepted by `POST /messages` (not replays of an Idempotency-Key). */
  MessagesAccepted: 'MessagesAccepted',
  /** Messages a campaign's fan-out created. */
  CampaignMessagesFannedOut: 'CampaignMessagesFannedOut',
  /** Messages the platform accepted (moved to `sent`). */
  MessagesSent: 'MessagesSent',
  /** Messages that ended `failed`, all codes together (the send-failure alarm's numerator). */
  MessagesFailed: 'MessagesFailed',
  /** The same, with the dimension `ErrorCode` (the message's `error.code`), for the dashboard. */
  MessagesFailedByCode: 'MessagesFailedByCode',
  /** Inbound messages from customers stored. */
  InboundMessagesReceived: 'InboundMessagesReceived',
  /** Subscriber webhook deliveries answered 2xx. */
  WebhookDeliveriesSucceeded: 'WebhookDeliveriesSucceeded',
  /** Subscriber webhook delivery attempts that failed (non-2xx, time-out, refused). */
  WebhookDeliveriesFailed: 'WebhookDeliveriesFailed',
  /** Platform answers that asked us to slow down (HTTP 429, codes 130429, 131056, 80007...). */
  PlatformThrottled: 'PlatformThrottled',
  /** Requests answered 429 `rate_limited` by the workspace limit (contract §2). */
  RequestsRateLimited: 'RequestsRateLimited',
  /** A business number's sending paused on an account-level error (contract §16). */
  NumbersPaused: 'NumbersPaused',
  /**
   * What the platform charged (contract §20): the cost of each message once billed, summed, in
   * its card's currency, with the dimensions WorkspaceId and Currency: spend per workspace.
   */
  SpendBilled: 'SpendBilled',
} as const;

export type BusinessMetricName = (typeof BusinessMetric)[keyof typeof BusinessMetric];

/** The dimension of MessagesFailedByCode. */
export const ERROR_CODE_DIMENSION = 'ErrorCode';
/** The dimensions of SpendBilled. */
export const WORKSPACE_DIMENSION = 'WorkspaceId';
export const CURRENCY_DIMENSION = 'Currency';
