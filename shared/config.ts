import { DEFAULT_GRAPH_API_VERSION } from '#shared/platform/graph-version';

const number = (name: string, fallback: number): number => Number(process.env[name] ?? fallback);

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`Missing environment variable ${name}`);
  return value;
}

/**
 * Every setting the service reads from its environment, typed, in one place: no other module of
 * `shared/` or `functions/` reads `process.env` (the layer rules check it). Read lazily, so tests
 * can set them per suite.
 */
export const env = {
  /** Lambda's region, or the local stack's. */
  get awsRegion() {
    return process.env.AWS_REGION ?? 'us-east-1';
  },
  get serviceName() {
    return process.env.POWERTOOLS_SERVICE_NAME ?? 'messaging-api';
  },

  // Endpoints: set on the local stack only; unset in AWS, where each client calls the service's regional endpoint.
  get dynamodbEndpoint() {
    return process.env.DYNAMODB_ENDPOINT;
  },
  get sqsEndpoint() {
    return process.env.SQS_ENDPOINT;
  },
  /** The S3 emulator locally (fauxqs serves SQS and S3 on one port). */
  get s3Endpoint() {
    return process.env.S3_ENDPOINT;
  },
  get eventBridgeEndpoint() {
    return process.env.EVENTBRIDGE_ENDPOINT;
  },
  /** Seconds an erasure waits between its two passes over the table, for writes under way to land (docs/operator.md, "Erasure"). */
  get erasureGraceSeconds() {
    return number('ERASURE_GRACE_SECONDS', 60);
  },
  /**
   * How long after its workspace's list widened a campaign's fan-out waits before writing
   * (data/message-list-shards.ts): a list request can run 10 s (ListMessages' timeout), and the
   * widening's time is taken before its write, which the SDK's retries may delay: 10 s more.
   */
  get listWideningDelayMs() {
    return number('LIST_WIDENING_DELAY_MS', 20_000);
  },
  get schedulerEndpoint() {
    return process.env.SCHEDULER_ENDPOINT;
  },
  /** Tests only: the local stack keeps secrets in files and the environment, never calls Secrets Manager. */
  get secretsManagerEndpoint() {
    return process.env.SECRETS_MANAGER_ENDPOINT;
  },

  // Resources the stack names for each function.
  get tableName() {
    return required('TABLE_NAME');
  },
  /** The URL of a work queue the function sends to, `SEND_QUEUE_URL` for `send`. */
  queueUrl(name: string) {
    return required(`${name.toUpperCase()}_QUEUE_URL`);
  },
  get mediaBucket() {
    return required('MEDIA_BUCKET');
  },
  /** The account that owns the media bucket: every call names it (`ExpectedBucketOwner`, contract §22). */
  get mediaBucketOwner() {
    return required('MEDIA_BUCKET_OWNER');
  },
  get eventBusName() {
    return required('EVENT_BUS_NAME');
  },
  get campaignSchedule() {
    return { targetArn: required('CAMPAIGN_SCHEDULE_TARGET_ARN'), roleArn: required('SCHEDULER_ROLE_ARN') };
  },
  /** The function that counts messages from the table stream: its failed batches are counted again. */
  get messageCountingFunction() {
    return process.env.MESSAGE_COUNTING_FUNCTION;
  },

  // The platform.
  get graphApiBaseUrl() {
    return process.env.GRAPH_API_BASE_URL ?? 'https://graph.facebook.com';
  },
  get graphApiVersion() {
    return process.env.GRAPH_API_VERSION ?? DEFAULT_GRAPH_API_VERSION;
  },
  get graphTimeoutMs() {
    return number('GRAPH_TIMEOUT_MS', 10_000);
  },
  get mediaDownloadTimeoutMs() {
    return number('MEDIA_DOWNLOAD_TIMEOUT_MS', 30_000);
  },
  /** The platform credentials' secret in AWS; unset locally, where PLATFORM_SECRETS holds them. */
  get platformSecretArn() {
    return process.env.PLATFORM_SECRET_ARN;
  },
  get localPlatformSecrets() {
    return process.env.PLATFORM_SECRETS ?? '{}';
  },
  /**
   * Where each workspace's own platform token is kept (contract §19): in AWS, Secrets Manager
   * secrets named `<prefix>/workspaces/<workspace id>`; on the local stack (no prefix), JSON files
   * in LOCAL_WORKSPACE_SECRETS_DIR (`.local/workspace-secrets`).
   */
  get workspaceSecretsPrefix() {
    return process.env.WORKSPACE_SECRETS_PREFIX;
  },
  get localWorkspaceSecretsDir() {
    return process.env.LOCAL_WORKSPACE_SECRETS_DIR;
  },
  /**
   * Local stack only: the SHA-256 (hex) of the operator key `npm start` prints, which /admin/v1
   * accepts as a Bearer token. Never set in AWS, where API Gateway's IAM authorization admits the operator.
   */
  get localOperatorKeySha256() {
    return process.env.OPERATOR_KEY_SHA256;
  },
  /** Local development only: webhook subscriptions may use http:// and loopback addresses. */
  get allowInsecureWebhooks() {
    return process.env.ALLOW_INSECURE_WEBHOOKS === 'true';
  },

  // Sending (docs/limits.md).
  /** A number's platform throughput when none is set for it. */
  get sendRatePerSecond() {
    return number('SEND_RATE_PER_SECOND', 80);
  },
  get maxSendAttempts() {
    return number('MAX_SEND_ATTEMPTS', 8);
  },
  /** How long an ambiguous send waits for the platform's report before it is sent once more. */
  get ambiguousWaitMs() {
    return number('AMBIGUOUS_WAIT_SECONDS', 600) * 1000;
  },
  /** The platform's pair limit: the spacing of messages to one recipient. */
  get pairIntervalMs() {
    return number('PAIR_INTERVAL_MS', 6000);
  },
  /** How long after a cancellation its held messages' resume runs. */
  get cancelledResumeDelayMs() {
    return number('CANCELLED_RESUME_SECONDS', 60) * 1000;
  },
  /**
   * Markets closed to marketing templates (contract §21): calling codes (`"1"`) or regions
   * (`"US"`), a JSON array. Unset, the platform's documented list: the United States since April
   * 2025 (docs/messaging.md, "Markets closed to marketing"); the local stack sets `[]`.
   */
  get closedMarkets(): string[] {
    return JSON.parse(process.env.CLOSED_MARKETS ?? '["US"]') as string[];
  },
  /** Above this many contacts read, a segment is resolved after the launch's answer. */
  get segmentResolvedLaterAbove() {
    return number('SEGMENT_RESOLVED_LATER_ABOVE', 5_000);
  },

  /** Test only: factors that shorten the service's waits so tests see them end; 1 in any deployment. */
  testScales: {
    get sendBackoff() {
      return number('SEND_BACKOFF_SCALE', 1);
    },
    get pauseProbe() {
      return number('PAUSE_PROBE_SCALE', 1);
    },
    get mediaBackoff() {
      return number('MEDIA_BACKOFF_SCALE', 1);
    },
  },
};
