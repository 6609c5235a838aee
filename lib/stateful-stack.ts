import { CfnOutput, Duration, Fn, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { AttributeType, Billing, ProjectionType, StreamViewType, TableEncryptionV2, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { EventBus } from 'aws-cdk-lib/aws-events';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { indexes, table } from '#shared/data/table/table';
import { EVENT_SOURCE } from '#shared/events/event';
import type { QueueName } from '#shared/service/queues';
import { createBusDeliveryFailureQueue, createStreamFailureQueue, createWorkQueues } from '#lib/work-queues';
import { acknowledgeMediaBucketFindings, acknowledgePlatformSecretFindings } from '#lib/nag-suppressions';
import { MEDIA_RETENTION_DAYS, STORED_WEBHOOK_RETENTION_DAYS, STORED_WEBHOOKS_PREFIX } from '#shared/media/bucket-settings';

const stringKey = (name: string) => ({ name, type: AttributeType.STRING });

/**
 * The media bucket's name: one deployment per account and region, like the event bus's. A known
 * name gives the compute stack's object grants a fixed ARN (and cdk-nag acknowledgment).
 */

/**
 * Resources that hold data and outlive deployments of the code: the single table, the platform
 * credentials, the queues (with their dead-letter queues) and the event bus (with its archive).
 */
/**
 * The media bucket's objects, exported under a fixed name: the bucket's own name is CloudFormation's
 * (unguessable), and the grants on its objects read the same string in both stacks and in their
 * acknowledged findings (lib/nag-suppressions.ts).
 */
export const MEDIA_OBJECTS_EXPORT = 'messaging-api-media-objects-arn';
export const mediaObjectsArn = Fn.importValue(MEDIA_OBJECTS_EXPORT);

export class StatefulStack extends Stack {
  readonly table: TableV2;
  readonly platformSecret: Secret;
  /** The work queues of shared/service/queues.ts, by name, and their dead-letter queues. */
  readonly queues: Record<QueueName, Queue>;
  readonly deadLetterQueues: Record<QueueName, Queue>;
  /** What the table stream's consumer failed to process after its retries. */
  readonly streamFailureQueue: Queue;
  /** The service's custom bus: functions with access `bus` publish to it, `busRule` operations subscribe. */
  readonly eventBus: EventBus;
  /** Dead-letter queue of the bus rules' targets: events EventBridge could not deliver after its retries. */
  readonly busDeliveryFailureQueue: Queue;
  /** Copies of customers' media (contract §13), and platform webhooks too large for a queue message: private, encrypted, expiring. */
  readonly mediaBucket: Bucket;

  constructor(scope: Construct, id: string, props?: StackProps) {
    super(scope, id, props);

    // Keys, TTL and indexes come from shared/data/table/table.ts, the module the code queries with.
    this.table = new TableV2(this, 'Table', {
      partitionKey: stringKey(table.partitionKey),
      sortKey: stringKey(table.sortKey),
      timeToLiveAttribute: table.timeToLiveAttribute,
      globalSecondaryIndexes: Object.values(indexes).map((index) => ({
        indexName: index.indexName,
        partitionKey: stringKey(index.partitionKey),
        sortKey: stringKey(index.sortKey),
        ...(index.projectedAttributes === 'ALL'
          ? { projectionType: ProjectionType.ALL }
          : { projectionType: ProjectionType.INCLUDE, nonKeyAttributes: [...index.projectedAttributes] }),
      })),
      // Both images: the stream consumer sees what changed (e.g. a message's status) without reading the item again.
      dynamoStream: StreamViewType.NEW_AND_OLD_IMAGES,
      billing: Billing.onDemand(),
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      encryption: TableEncryptionV2.awsManagedKey(),
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });

    // Only verify_token is generated; the operator fills app_secret, access_token (and optionally
    // access_tokens: { "<workspace id>": "<token>" }) from the Meta app after deploy.
    this.platformSecret = new Secret(this, 'PlatformSecret', {
      description: 'WhatsApp platform credentials: app_secret, verify_token, access_token, optional access_tokens map (workspace id -> token)',
      generateSecretString: {
        secretStringTemplate: JSON.stringify({ app_secret: '', access_token: '' }),
        generateStringKey: 'verify_token',
        excludePunctuation: true,
        passwordLength: 40,
      },
      removalPolicy: RemovalPolicy.RETAIN,
    });
    acknowledgePlatformSecretFindings(this.platformSecret);

    const workQueues = createWorkQueues(this);
    this.queues = workQueues.queues;
    this.deadLetterQueues = workQueues.deadLetterQueues;
    this.streamFailureQueue = createStreamFailureQueue(this);

    this.eventBus = new EventBus(this, 'EventBus', { eventBusName: 'messaging-api-events', description: 'Events of the messaging API (source messaging-api)' });
    // Everything the service publishes, for 7 days: `start-replay` re-sends a time window to the rules (e.g. after a bug fix).
    this.eventBus.archive('EventArchive', {
      description: 'Events of the messaging API, kept 7 days for replay',
      eventPattern: { source: [EVENT_SOURCE] },
      retention: Duration.days(7),
    });
    this.busDeliveryFailureQueue = createBusDeliveryFailureQueue(this, this.eventBus);

    // Named by CloudFormation (the stack's name and a random suffix): a predictable name could be
    // taken first in another account (contract §22); every call also names the owner (shared/media/bucket.ts).
    this.mediaBucket = new Bucket(this, 'MediaBucket', {
      encryption: BucketEncryption.S3_MANAGED,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      enforceSSL: true,
      lifecycleRules: [
        { id: 'ExpireMediaCopies', expiration: Duration.days(MEDIA_RETENTION_DAYS), abortIncompleteMultipartUploadAfter: Duration.days(1) },
        { id: 'ExpireStoredPlatformWebhooks', prefix: STORED_WEBHOOKS_PREFIX, expiration: Duration.days(STORED_WEBHOOK_RETENTION_DAYS) },
      ],
      removalPolicy: RemovalPolicy.RETAIN,
    });
    acknowledgeMediaBucketFindings(this.mediaBucket);
    new CfnOutput(this, 'MediaObjectsArn', { value: this.mediaBucket.arnForObjects('*'), exportName: MEDIA_OBJECTS_EXPORT });
  }

  /** Every queue where failed work ends up, each watched by an alarm: a queue added here or in shared/service/queues.ts gets its own. */
  get allDeadLetterQueues(): Queue[] {
    return [...Object.values(this.deadLetterQueues), this.streamFailureQueue, this.busDeliveryFailureQueue];
  }
}
